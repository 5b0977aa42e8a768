/**
 * An agent with route triggers whose project lacks express or cors: `Runtime.init` names the
 * plugins whose routes need the HTTP server, and how to install what it lacks.
 */
import { WeftError } from '@weft/core';
import { describe, expect, it, vi } from 'vitest';
import { makeRuntime, pingerPlugin } from './fixtures.js';

// The Node platform module, as `#platform` resolves for the runtime, with express missing.
vi.mock('../../../packages/core/src/platform/node.ts', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  loadHttpServer: () =>
    Promise.reject(
      Object.assign(new Error("Cannot find package 'express' imported from server-manager.js"), {
        code: 'ERR_MODULE_NOT_FOUND',
      }),
    ),
}));

describe('Runtime.init without express installed', () => {
  it('reports the plugins whose route triggers need the server, and the command that installs it [claim:node-subpath-missing-peers] [claim:errors-invalid-config-peers] [claim:scaling-pack-express-cors]', async () => {
    let caught: unknown;
    try {
      await makeRuntime({ plugins: [pingerPlugin()] });
    } catch (error) {
      caught = error;
    }
    expect(WeftError.is(caught, 'WEFT_INVALID_CONFIG')).toBe(true);
    const message = (caught as Error).message;
    expect(message).toContain(
      'plugin "pinger": route triggers need the HTTP server of @weft/core/node, which could not be loaded',
    );
    expect(message).toContain("Cannot find package 'express'");
    expect(message).toContain('npm install express cors');
  });

  it('lists the missing server beside a wrong option [claim:philo-init-one-error]', async () => {
    let caught: unknown;
    try {
      await makeRuntime({ plugins: [pingerPlugin()], options: { maxSteps: 0 } });
    } catch (error) {
      caught = error;
    }
    expect(WeftError.is(caught, 'WEFT_INVALID_CONFIG')).toBe(true);
    const problems = (caught as Error).message.split('\n- ').slice(1);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^options\.maxSteps: /);
    expect(problems[1]).toMatch(/^plugin "pinger": route triggers need the HTTP server/);
  });

  it('lists the missing server for a plugin with routes that has problems of its own [claim:philo-init-one-error]', async () => {
    // An id the registry refuses: the plugin is not registered, and its routes still count.
    const pinger = Object.assign(pingerPlugin(), { id: 'Pinger' });
    let caught: unknown;
    try {
      await makeRuntime({ plugins: [pinger] });
    } catch (error) {
      caught = error;
    }
    const problems = (caught as Error).message.split('\n- ').slice(1);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^plugin "Pinger": id must be lower-case letters/);
    expect(problems[1]).toMatch(/^plugin "Pinger": route triggers need the HTTP server/);
  });

  it('still builds a runtime without route triggers, which never loads the server [claim:core-readme-node-subpath]', async () => {
    const { runtime } = await makeRuntime({ plugins: [] });
    expect(runtime.server.url).toBeUndefined();
  });
});
