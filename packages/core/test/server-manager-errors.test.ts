/** The codes ServerManager refuses a bad configuration, a taken route or a taken port with. */
import { createServer } from 'node:net';
import { ServerManager } from '@weft/core/node';
import { describe, expect, it } from 'vitest';
import { errorOf } from './fixtures.js';

describe('ServerManager refusals', () => {
  it('refuses a taken route with WEFT_DUPLICATE, and any mount once started with WEFT_RUNTIME_STOPPED [claim:tsdoc-server-mount]', async () => {
    const server = new ServerManager({ port: 0 });
    const route = { method: 'GET' as const, path: '/a', handler: () => undefined };
    server.mount('one', route, undefined);
    expect((await errorOf(() => server.mount('two', route, undefined))).code).toBe(
      'WEFT_DUPLICATE',
    );
    await server.start();
    try {
      const late = { ...route, path: '/b' };
      expect((await errorOf(() => server.mount('one', late, undefined))).code).toBe(
        'WEFT_RUNTIME_STOPPED',
      );
    } finally {
      await server.stop();
    }
  });

  it('refuses a path express cannot read with WEFT_INVALID_ARGUMENT naming the plugin and the route; named, the wildcard mounts [claim:tsdoc-server-mount]', async () => {
    const server = new ServerManager({ port: 0 });
    const unreadable = {
      method: 'GET' as const,
      path: '/files/*',
      handler: (_request: unknown, response: { end(): void }) => response.end(),
    };
    const error = await errorOf(() => server.mount('files', unreadable, undefined));
    expect(error.code).toBe('WEFT_INVALID_ARGUMENT');
    expect(error.message).toContain('route GET /files/* of plugin "files"');
    // The wildcard named, as express 5 wants it, mounts and answers.
    server.mount('files', { ...unreadable, path: '/files/*path' }, undefined);
    await server.start();
    try {
      const response = await fetch(`${server.url}/files/a/b`);
      expect(response.status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('fails to start with WEFT_LISTEN_FAILED naming host and port when the port is taken [claim:tsdoc-server-listen]', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const error = await errorOf(new ServerManager({ port }).start());
      expect(error.code).toBe('WEFT_LISTEN_FAILED');
      expect(error.message).toContain(`127.0.0.1:${port}`);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('refuses a bad port or timeout with WEFT_INVALID_ARGUMENT naming it [claim:tsdoc-server-constructor]', async () => {
    for (const [config, name] of [
      [{ port: 70_000 }, 'port'],
      [{ stopGraceMs: 0 }, 'stopGraceMs'],
      [{ maxJsonDepth: -1 }, 'maxJsonDepth'],
    ] as const) {
      const error = await errorOf(() => new ServerManager(config));
      expect(error.code).toBe('WEFT_INVALID_ARGUMENT');
      expect(error.message).toContain(`"${name}"`);
    }
  });

  it('refuses a bodyLimit the body parser would misread, and a cors key or value the middleware does not take, with WEFT_INVALID_ARGUMENT naming it [claim:tsdoc-server-constructor] [claim:tsdoc-server-cors-checked] [claim:tsdoc-server-body-limit-checked] [claim:trig-body-limit-forms]', async () => {
    for (const [config, name] of [
      // The parser reads '1m' by its digits, as 1 byte, and refuses 'abc' only when built.
      [{ bodyLimit: '1m' }, 'bodyLimit'],
      [{ bodyLimit: 'abc' }, 'bodyLimit'],
      [{ bodyLimit: '0kb' }, 'bodyLimit'],
      [{ bodyLimit: 0 }, 'bodyLimit'],
      // The middleware would ignore the misspelt key and allow every origin.
      [{ cors: { orign: ['https://app.example.com'] } }, 'cors'],
      [{ cors: { origin: 5 } }, 'cors.origin'],
      [{ cors: { maxAge: -1 } }, 'cors.maxAge'],
    ] as const) {
      const error = await errorOf(() => new ServerManager(config as never));
      expect({ name, code: error.code }).toEqual({ name, code: 'WEFT_INVALID_ARGUMENT' });
      expect(error.message).toContain(`option "${name}"`);
    }
    expect(
      () => new ServerManager({ bodyLimit: '1.5MB', cors: { origin: [/\.example$/], maxAge: 60 } }),
    ).not.toThrow();
  });
});
