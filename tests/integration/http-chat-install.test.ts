/**
 * What an agent with `@weft/plugin-chat` installs besides the two Weft packages: the chat route
 * runs on the core's HTTP server, whose express and cors are optional peers of `@weft/core`.
 * The pages' install lines name them, and without them `Runtime.init` says what to install.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Runtime, WeftError } from '@weft/core';
import { ChatPlugin } from '@weft/plugin-chat';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { describe, expect, it, vi } from 'vitest';
import { silentLogger } from './core/fixtures.js';

const ROOT = path.resolve(__dirname, '../..');

// The Node platform module, as `#platform` resolves for the runtime, with express missing.
vi.mock('../../packages/core/src/platform/node.ts', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  loadHttpServer: () =>
    Promise.reject(
      Object.assign(new Error("Cannot find package 'express' imported from server-manager.js"), {
        code: 'ERR_MODULE_NOT_FOUND',
      }),
    ),
}));

function read(file: string): string {
  return readFileSync(path.join(ROOT, file), 'utf8');
}

function manifest(pkg: string): {
  dependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
} {
  return JSON.parse(read(`packages/${pkg}/package.json`)) as never;
}

describe('installing @weft/plugin-chat', () => {
  it('names express and cors beside the Weft packages, since the chat route needs the server and npm installs neither [claim:httpchat-install-express] [claim:install-chat-row-express]', () => {
    const page = read('docs/building-plugins/http-chat.md');
    const block = /```bash npm2yarn\n([^\n]*)\n```/.exec(page)?.[1] ?? '';
    expect(block.split(' ')).toEqual([
      'npm',
      'install',
      '@weft/core',
      '@weft/plugin-chat',
      'express',
      'cors',
    ]);
    const row = read('docs/installation.md')
      .split('\n')
      .find((line) => line.startsWith('| `@weft/plugin-chat`'));
    expect(row?.split('|')[3]?.trim()).toBe('`npm install @weft/plugin-chat express cors`');
    // Why: the plugin's trigger is a route, served by the core's HTTP server...
    expect(new ChatPlugin().triggers.map((trigger) => trigger.type)).toEqual(['route']);
    // ...whose express and cors are optional peers of the core, and no dependency of the plugin.
    expect(manifest('core').peerDependenciesMeta).toMatchObject({
      express: { optional: true },
      cors: { optional: true },
    });
    expect(Object.keys(manifest('plugin-chat').dependencies ?? {})).not.toContain('express');
    expect(Object.keys(manifest('plugin-chat').dependencies ?? {})).not.toContain('cors');
  });

  it('without express, fails Runtime.init with WEFT_INVALID_CONFIG naming the chat plugin and the install command [claim:httpchat-without-express]', async () => {
    let caught: unknown;
    try {
      await Runtime.init({
        models: [new ScriptedModelProvider({ fallback: () => ({ steps: [] }) })],
        memory: new InMemoryMemoryProvider(),
        plugins: [new ChatPlugin({ trustClientUser: true })],
        options: { logger: silentLogger },
      });
    } catch (error) {
      caught = error;
    }
    expect(WeftError.is(caught, 'WEFT_INVALID_CONFIG')).toBe(true);
    const message = (caught as Error).message;
    expect(message).toContain(
      'plugin "chat": route triggers need the HTTP server of @weft/core/node',
    );
    expect(message).toContain('npm install express cors');
  });
});
