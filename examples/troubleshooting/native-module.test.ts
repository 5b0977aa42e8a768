import { mkdtempSync, rmSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WeftError } from '@weft/core';
import { SqliteMemoryProvider } from '@weft/memory-sqlite';
import { pino } from 'pino';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createAgent } from '../getting-started/agent.js';
import { createScriptedModel } from '../getting-started/scripted-model.js';

// better-sqlite3 loads its binary through the `bindings` package when the first database
// opens. This file runs in a process of its own (@vitest-own-modules), so no database has
// opened before the test, and a stand-in for `bindings` can fail that load as Node.js does
// for a binary built for another Node.js version (the text is Node's own, line breaks
// included).
const require = createRequire(import.meta.url);
const bindingsPath = createRequire(require.resolve('better-sqlite3')).resolve(
  'bindings',
);
const MISMATCH = [
  "The module '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'",
  'was compiled against a different Node.js version using',
  'NODE_MODULE_VERSION 115. This version of Node.js requires',
  'NODE_MODULE_VERSION 127. Please try re-compiling or re-installing',
  'the module (for instance, using `npm rebuild` or `npm install`).',
].join('\n');

const folder = mkdtempSync(path.join(tmpdir(), 'weft-native-'));
const original = require.cache[bindingsPath];
afterEach(() => {
  if (original) require.cache[bindingsPath] = original;
  else delete require.cache[bindingsPath];
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('a better-sqlite3 binary built for another Node.js version', () => {
  it('fails the start with WEFT_START_FAILED naming the memory provider, then WEFT_SQLITE_OPEN_FAILED and Node’s message [claim:trouble-node-module-version] [claim:errors-sqlite-open-native-binary] [claim:sqlite-open-native-binary]', async () => {
    const standIn = new Module(bindingsPath);
    standIn.filename = bindingsPath;
    standIn.loaded = true;
    standIn.exports = () => {
      throw Object.assign(new Error(MISMATCH), { code: 'ERR_DLOPEN_FAILED' });
    };
    require.cache[bindingsPath] = standIn;

    const runtime = await createAgent({
      model: createScriptedModel(),
      memory: new SqliteMemoryProvider({ path: path.join(folder, 'chat.db') }),
      port: 0,
      logger: pino({ level: 'silent' }),
    });
    try {
      const error = await runtime.start().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(WeftError.is(error, 'WEFT_START_FAILED')).toBe(true);
      expect(
        WeftError.is((error as Error).cause, 'WEFT_SQLITE_OPEN_FAILED'),
      ).toBe(true);
      const message = (error as Error).message;
      expect(message).toMatch(
        /^Runtime\.start: memory provider "sqlite" failed to initialise: SqliteMemoryProvider "sqlite": cannot open the database ".*chat\.db": The module '.*better_sqlite3\.node' \[WEFT_SQLITE_OPEN_FAILED\] \[WEFT_START_FAILED\]\nwas compiled against a different Node\.js version using\nNODE_MODULE_VERSION 115\./,
      );
      // Node's explanation is quoted once, not appended again after it as the cause.
      expect(message.split('was compiled against')).toHaveLength(2);
      expect(message.endsWith('`npm install`).')).toBe(true);
    } finally {
      await runtime.stop();
    }
  });

  it('fails the start the same way, with bindings’ “Could not locate the bindings file”, when no binary was built, as after npm 12 blocked the install script [claim:trouble-npm12-blocked] [claim:errors-sqlite-open-native-binary] [claim:sqlite-open-native-binary]', async () => {
    // better-sqlite3's tarball has no binary: its install script fetches or compiles one. Where
    // npm 12 blocked that script, `bindings` searches a package with no build folder; the real
    // `bindings`, pointed at an empty folder, fails as it then does.
    const driver = require(
      createRequire(require.resolve('better-sqlite3')).resolve(
        'better-sqlite3/package.json',
      ),
    ) as { files: string[] };
    expect(
      driver.files.filter((entry) => /^(build|prebuilds?)\b/.test(entry)),
    ).toEqual([]);
    const realBindings = require(bindingsPath) as (options: {
      bindings: string;
      module_root: string;
    }) => unknown;
    const unbuilt = mkdtempSync(path.join(folder, 'unbuilt-'));
    const standIn = new Module(bindingsPath);
    standIn.filename = bindingsPath;
    standIn.loaded = true;
    standIn.exports = (name: string) =>
      realBindings({ bindings: name, module_root: unbuilt });
    require.cache[bindingsPath] = standIn;

    const runtime = await createAgent({
      model: createScriptedModel(),
      memory: new SqliteMemoryProvider({ path: path.join(folder, 'chat.db') }),
      port: 0,
      logger: pino({ level: 'silent' }),
    });
    try {
      const error = await runtime.start().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(WeftError.is(error, 'WEFT_START_FAILED')).toBe(true);
      expect(
        WeftError.is((error as Error).cause, 'WEFT_SQLITE_OPEN_FAILED'),
      ).toBe(true);
      expect((error as Error).message).toMatch(
        /^Runtime\.start: memory provider "sqlite" failed to initialise: SqliteMemoryProvider "sqlite": cannot open the database ".*chat\.db": Could not locate the bindings file\. Tried:/,
      );
      // The paths it tried follow once, not again as the cause.
      expect(
        (error as Error).message.split('Could not locate the bindings file'),
      ).toHaveLength(2);
    } finally {
      await runtime.stop();
    }
  });
});
