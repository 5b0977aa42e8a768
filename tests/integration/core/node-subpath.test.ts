/**
 * The HTTP server is `@weft/core/node`'s: `@weft/core` names no express in its types or its
 * dependencies, and loads express only with `import()`, when some plugin has a route trigger.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as core from '@weft/core';
import { WeftError, type Plugin, type Runtime } from '@weft/core';
import { serverOf, ServerManager } from '@weft/core/node';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { makeRuntime, pingerPlugin, TestPlugin } from './fixtures.js';

const root = path.resolve(__dirname, '../../..');

/** A runtime, not yet started, whose server listens on a free port; it is stopped after the test. */
async function runtimeWith(plugin: Plugin): Promise<Runtime> {
  const { runtime } = await makeRuntime({ plugins: [plugin], options: { server: { port: 0 } } });
  return runtime;
}

describe('@weft/core/node', () => {
  it('serves route triggers through the ServerManager the runtime loads, whose express app serverOf hands out [claim:node-subpath-runtime-loads] [claim:tsdoc-node-server-of] [claim:core-readme-node-subpath] [claim:stability-node-entry]', async () => {
    const runtime = await runtimeWith(pingerPlugin());
    const server = serverOf(runtime);
    expect(server).toBe(runtime.server);
    expect(server).toBeInstanceOf(ServerManager);
    // The class is the subpath's alone.
    expect(Object.keys(core)).not.toContain('ServerManager');
    server.app.get('/own', (_request, response) => {
      response.json({ own: true });
    });
    await runtime.start();
    const ping = await fetch(`${runtime.server.url}/ping`, { signal: AbortSignal.timeout(5_000) });
    expect(ping.headers.get('x-request-id')).toBe(((await ping.json()) as { pong: string }).pong);
    const own = await fetch(`${runtime.server.url}/own`, { signal: AbortSignal.timeout(5_000) });
    expect(await own.json()).toEqual({ own: true });
  });

  it('has no server to hand out for a runtime without route triggers, which listens nowhere [claim:node-subpath-no-routes] [claim:tsdoc-node-server-of] [claim:errors-invalid-argument-no-server]', async () => {
    const runtime = await runtimeWith(new TestPlugin('quiet'));
    await runtime.start();
    expect(runtime.server.url).toBeUndefined();
    expect(runtime.server.port).toBeUndefined();
    let caught: unknown;
    try {
      serverOf(runtime);
    } catch (error) {
      caught = error;
    }
    expect(WeftError.is(caught, 'WEFT_INVALID_ARGUMENT')).toBe(true);
    expect((caught as Error).message).toContain('only when some plugin has a route trigger');
    // Its stand-in refuses to start or mount with the same code, naming what needed the server.
    await expect(runtime.server.start()).rejects.toSatisfy((error) =>
      WeftError.is(error, 'WEFT_INVALID_ARGUMENT'),
    );
    let mounted: unknown;
    try {
      runtime.server.mount(
        'quiet',
        { method: 'POST', path: '/late', handler: () => undefined },
        runtime,
      );
    } catch (error) {
      mounted = error;
    }
    expect(WeftError.is(mounted, 'WEFT_INVALID_ARGUMENT')).toBe(true);
    expect((mounted as Error).message).toContain('POST /late');
  });

  it('loads express and cors only with import(): importing @weft/core reaches neither statically [claim:node-subpath-no-express-import] [claim:core-readme-node-subpath]', async () => {
    const result = await build({
      stdin: { contents: "export * from '@weft/core';", resolveDir: root, loader: 'ts' },
      bundle: true,
      write: false,
      platform: 'node',
      format: 'esm',
      metafile: true,
      logLevel: 'silent',
      conditions: ['weft-source'],
      external: ['express', 'cors', 'pino', 'zod', 'liquidjs'],
    });
    const inputs = result.metafile.inputs;
    // Follow only static imports from the entry.
    const reached = new Set<string>();
    const staticImports = new Set<string>();
    const queue = ['<stdin>'];
    while (queue.length > 0) {
      const file = queue.pop() as string;
      if (reached.has(file)) continue;
      reached.add(file);
      for (const { path: imported, kind, external } of inputs[file]?.imports ?? []) {
        if (kind !== 'import-statement') continue;
        if (external) staticImports.add(imported);
        else queue.push(imported);
      }
    }
    expect(reached).toContain('packages/core/src/platform/node.ts');
    expect([...staticImports].filter((name) => /^(express|cors)$/.test(name))).toEqual([]);
    expect(reached).not.toContain('packages/core/src/server/server-manager.ts');
    // The check can fail: the whole bundle does hold express, behind the dynamic import.
    const dynamic = inputs['packages/core/src/platform/node.ts']?.imports.filter(
      ({ kind }) => kind === 'dynamic-import',
    );
    expect(dynamic?.map(({ path: imported }) => imported)).toEqual([
      'packages/core/src/server/server-manager.ts',
    ]);
    expect(
      inputs['packages/core/src/server/server-manager.ts']?.imports.map(({ path: p }) => p),
    ).toEqual(expect.arrayContaining(['express', 'cors']));
  });

  it("lists express and cors as @weft/core's optional peer dependencies, not its dependencies [claim:node-subpath-peers] [claim:core-readme-peers] [claim:chat-readme-express-cors]", async () => {
    const manifest = JSON.parse(
      await readFile(path.join(root, 'packages/core/package.json'), 'utf8'),
    ) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
      exports: Record<string, Record<string, unknown>>;
    };
    for (const name of ['express', 'cors', '@types/express', '@types/cors']) {
      expect(manifest.dependencies, name).not.toHaveProperty(name);
    }
    for (const name of ['express', 'cors', '@types/express']) {
      expect(manifest.peerDependencies, name).toHaveProperty(name);
      expect(manifest.peerDependenciesMeta[name]?.optional, name).toBe(true);
    }
    expect(manifest.exports['./node']?.['weft-source']).toBe('./src/node.ts');
  });
});
