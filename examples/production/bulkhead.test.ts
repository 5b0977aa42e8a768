import {
  Plugin,
  type Executor,
  type PluginResult,
  type Runtime,
} from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from './bulkhead.js';

/** A plugin with one action that runs `execute`. */
class OneActionPlugin extends Plugin {
  readonly description: string;
  override readonly executors: readonly Executor[];
  constructor(
    readonly id: string,
    action: string,
    execute: () => Promise<PluginResult>,
  ) {
    super();
    this.description = `The ${id} plugin.`;
    this.executors = [{ action, description: `Runs ${action}.`, execute }];
  }
}

describe('the bulkhead example', () => {
  let runtime: Runtime | undefined;
  afterEach(async () => {
    await runtime?.stop();
    runtime = undefined;
  });

  it('keeps answering other spaces while the weather upstream hangs [claim:prod-snippets-tested] [claim:prod-bulkhead-example]', async () => {
    let forecasts = 0;
    const weather = new OneActionPlugin('weather', 'forecast', () => {
      forecasts += 1;
      // The upstream never answers and the call ignores the task's signal.
      return new Promise(() => undefined);
    });
    const notes = new OneActionPlugin('notes', 'save', async () => ({
      success: true,
    }));
    const model = new ScriptedModelProvider({
      fallback: (messages, request) => {
        if (request.purpose === 'review') return { type: 'continue' };
        const text = messages.map((message) => message.content).join('\n');
        return text.includes('Message: forecast')
          ? { steps: [{ pluginId: 'weather', action: 'forecast' }] }
          : { steps: [{ pluginId: 'notes', action: 'save' }] };
      },
    });
    runtime = await createAgent({
      model,
      memory: new InMemoryMemoryProvider(),
      plugins: [weather, notes],
      logger: pino({ level: 'silent' }),
      // The hung calls never end: stop without waiting for them.
      shutdown: 'cancel',
    });
    await runtime.start();
    const asked = (space: string, message: string) =>
      runtime!.dispatch({
        pluginId: 'notes',
        triggerId: 'message',
        space,
        message,
      });

    const hung = [1, 2, 3].map((index) => asked(`city-${index}`, 'forecast'));
    // Six healthy spaces at once: more than the workers the weather plugin left.
    const started = Date.now();
    const healthy = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((index) => asked(`notes-${index}`, 'save')),
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(healthy.every((task) => task.status === 'completed')).toBe(true);
    expect(forecasts).toBe(2);

    // The third weather step found both slots taken: after maxWaitMs it fails.
    const third = await hung[2]!;
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_900);
    expect(third.status).toBe('failed');
    expect(third.chain.at(-1)?.error).toContain('[WEFT_BULKHEAD_FULL]');
  });
});
