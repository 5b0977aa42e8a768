/**
 * TypeDoc's watch, as `DEV_API_PAGES=true npm start` runs it, leaves the terminal alone: it
 * clears the screen as it starts and before every rebuild unless `preserveWatchOutput` is set,
 * which wiped the dev server's address and earlier warnings. A real TypeDoc watches a small
 * project with the site's setting, a source is edited, and the terminal's clear is counted.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Application, LogLevel } from 'typedoc';
import ts from 'typescript';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { typedocOptions } from '@weft-internal/docs-model/typedoc';

const DEADLINE_MS = 30_000;

let dir: string;
let clears = 0;
const originalClear = ts.sys.clearScreen;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'weft-typedoc-watch-'));
  await writeFile(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['index.ts'] }),
  );
  await writeFile(path.join(dir, 'index.ts'), '/** One. */\nexport const one = 1;\n');
  clears = 0;
  ts.sys.clearScreen = () => {
    clears += 1;
  };
});

afterEach(async () => {
  ts.sys.clearScreen = originalClear;
  await rm(dir, { recursive: true, force: true });
});

/**
 * Watches the project until it has converted twice (once at start, once after an edit), then
 * ends the watch by changing TypeDoc's options file.
 */
async function watchThroughOneEdit(preserveWatchOutput: boolean): Promise<string[][]> {
  // TypeDoc restarts, ending this watch, when its options file changes.
  const stopFile = path.join(dir, 'typedoc.json');
  await writeFile(stopFile, '{}');
  const app = await Application.bootstrapWithPlugins({
    options: stopFile,
    entryPoints: [path.join(dir, 'index.ts')],
    tsconfig: path.join(dir, 'tsconfig.json'),
    preserveWatchOutput,
    logLevel: LogLevel.Error,
  });
  const converted: string[][] = [];
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`TypeDoc's watch converted ${converted.length} time(s) in time`)),
      DEADLINE_MS,
    );
  });
  const watch = app.convertAndWatch(async (project) => {
    converted.push((project.children ?? []).map((child) => child.name));
    if (converted.length === 1) {
      await writeFile(
        path.join(dir, 'index.ts'),
        '/** One. */\nexport const one = 1;\n/** Two. */\nexport const two = 2;\n',
      );
    } else if (converted.length === 2) {
      await writeFile(stopFile, '{ "logLevel": "Error" }');
    }
  });
  try {
    await Promise.race([watch, deadline]);
  } finally {
    clearTimeout(timer);
  }
  return converted;
}

describe("TypeDoc's watch for the dev server", () => {
  it('sets preserveWatchOutput in the options the site hands TypeDoc', () => {
    expect(typedocOptions.preserveWatchOutput).toBe(true);
  });

  it('with the setting, converts at start and after an edit and never clears the terminal', async () => {
    const converted = await watchThroughOneEdit(typedocOptions.preserveWatchOutput);
    expect(converted.slice(0, 2)).toEqual([['one'], ['one', 'two']]);
    expect(clears).toBe(0);
  }, 60_000);

  it('without it, clears the terminal (what the setting prevents)', async () => {
    const converted = await watchThroughOneEdit(false);
    expect(converted.slice(0, 2)).toEqual([['one'], ['one', 'two']]);
    expect(clears).toBeGreaterThan(0);
  }, 60_000);
});
