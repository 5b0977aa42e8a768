import { Runtime } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { NotesPlugin } from './notes-plugin.js';

const logger = pino({ level: 'silent' });

describe('NotesPlugin', () => {
  it('saves a note and lists it in a later task of the same space [claim:exec-render-namespace] [claim:plugin-template-names] [claim:plugin-no-review] [claim:liq-namespaces] [claim:testing-one-executor]', async () => {
    const model = new ScriptedModelProvider({
      responses: [
        { steps: [{ pluginId: 'notes', action: 'save' }] },
        { text: 'the boiler code is 4471' },
        { steps: [{ pluginId: 'notes', action: 'list' }] },
      ],
    });
    const memory = new InMemoryMemoryProvider();
    const runtime = await Runtime.init({
      models: [model],
      memory,
      plugins: [new NotesPlugin({ maxNotesShown: 5 })],
      options: { logger, server: { port: 0 } },
    });
    await runtime.start();
    try {
      const saved = await runtime.dispatch({
        pluginId: 'notes',
        triggerId: 'message',
        space: 'notes-user-ada',
        message: 'Remember that the boiler code is 4471',
      });
      expect(saved.status).toBe('completed');
      expect(saved.chain.at(-1)?.message).toBe(
        'Noted: the boiler code is 4471',
      );
      // The plugin's template was rendered into the getObject prompt.
      expect(model.requests[1]?.at(-1)?.content).toContain(
        'Find the note the user wants kept',
      );

      const listed = await runtime.dispatch({
        pluginId: 'notes',
        triggerId: 'message',
        space: 'notes-user-ada',
        message: 'What did I ask you to remember?',
      });
      expect(listed.chain.at(-1)?.message).toBe('- the boiler code is 4471\n');
      expect(await memory.query({ kind: 'note' })).toHaveLength(1);
      // Plan, getObject, plan: no review follows a successful last step.
      expect(model.requests).toHaveLength(3);
      expect(model.remaining).toBe(0);
    } finally {
      await runtime.stop();
    }
  });

  it('rejects a bad option when it is created [claim:plugin-ctor-validation] [claim:philo-messages]', () => {
    expect(() => new NotesPlugin({ maxNotesShown: 0 })).toThrow(
      'NotesPlugin: option "maxNotesShown" must be a positive integer, got 0',
    );
  });

  it('stops the runtime from starting when memory is unhealthy [claim:plugin-init-fails] [claim:philo-dependency-at-start] [claim:philo-messages]', async () => {
    class DownMemory extends InMemoryMemoryProvider {
      override async checkHealth(): Promise<boolean> {
        return false;
      }
    }
    const runtime = await Runtime.init({
      models: [new ScriptedModelProvider()],
      memory: new DownMemory(),
      plugins: [new NotesPlugin()],
      options: { logger, server: { port: 0 } },
    });
    // The whole message, as the Philosophy page shows it, code included.
    await expect(runtime.start()).rejects.toMatchObject({
      code: 'WEFT_START_FAILED',
      message:
        'Runtime.start: plugin "notes" failed to initialise: memory provider "in-memory" is not healthy [WEFT_START_FAILED]',
    });
    expect(runtime.status).toBe('stopped');
  });
});
