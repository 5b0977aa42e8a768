/**
 * An agent with route triggers whose project has express but lacks cors: the HTTP server of
 * `@weft/core/node` imports both, so `Runtime.init` names the plugins whose routes need it, as
 * it does for a missing express. Nothing here may import `@weft/core/node` before the runtime
 * tries to, or the missing module would fail the file rather than the init.
 */
import { Plugin, Runtime, WeftError, type Trigger } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';

// cors as a project without it resolves: its import fails.
vi.mock('cors', () => {
  throw Object.assign(new Error("Cannot find package 'cors' imported from server-manager.js"), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
});

class PingerPlugin extends Plugin {
  readonly id = 'pinger';
  readonly description = 'Answers pings.';
  override readonly triggers: Trigger[] = [
    {
      type: 'route',
      id: 'ping',
      method: 'GET',
      path: '/ping',
      handler: (_request, response) => response.json({ pong: true }),
    },
  ];
}

describe('Runtime.init without cors installed', () => {
  it('names the plugins whose route triggers need the server that cors belongs to [claim:core-readme-init-checks]', async () => {
    let caught: unknown;
    try {
      await Runtime.init({
        models: [new ScriptedModelProvider()],
        memory: new InMemoryMemoryProvider(),
        plugins: [new PingerPlugin()],
        options: { maxSteps: 0, logger: pino({ level: 'silent' }) },
      });
    } catch (error) {
      caught = error;
    }
    expect(WeftError.is(caught, 'WEFT_INVALID_CONFIG')).toBe(true);
    const problems = (caught as Error).message.split('\n- ').slice(1);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^options\.maxSteps: /);
    expect(problems[1]).toMatch(
      /^plugin "pinger": route triggers need the HTTP server of @weft\/core\/node, which could not be loaded \(.*cors/,
    );
    expect(problems[1]).toContain('npm install express cors');
  });
});
