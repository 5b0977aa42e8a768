/**
 * The entries tests start as child processes, compiled for plain `node`
 * (libs/test-support/compiled-script.ts): the compiled module must run as its source would
 * through tsx, or a fixture would behave differently from the code it stands for.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledScript } from '@weft-internal/test-support/compiled-script';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');

let dir: string;
let compiled: string | undefined;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'weft-compiled-script-'));
  await writeFile(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  // Other packages are imports that resolve from the entry's own package, as from source.
  await symlink(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  await mkdir(path.join(dir, 'lib'));
  await writeFile(
    path.join(dir, 'lib', 'where.ts'),
    [
      'export const whereAmI: string = import.meta.url;',
      // CommonJS's names, which tsx gives a TypeScript module; not a property of that name.
      'export const folderAndFile: string[] = [__dirname, __filename, { __dirname: 1 }.__dirname.toString()];',
      '',
    ].join('\n'),
  );
  await writeFile(
    path.join(dir, 'entry.ts'),
    [
      "import { pathToFileURL } from 'node:url';",
      "import { WeftError } from '@weft/core';",
      "import { z } from 'zod';",
      "import { folderAndFile, whereAmI } from './lib/where.js';",
      'const main: boolean = import.meta.url === pathToFileURL(process.argv[1] ?? "").href;',
      'const error = new WeftError("WEFT_INTERNAL", "probe");',
      'console.log(JSON.stringify({ main, whereAmI, folderAndFile, code: error.code, parsed: z.number().parse(3) }));',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  // Written through the link into the repository's node_modules/.cache: not left there.
  if (compiled !== undefined) await rm(compiled, { force: true });
  await rm(dir, { recursive: true, force: true });
});

describe('compiledScript', () => {
  it('gives a module that plain node runs as its source: its own URLs, folder and file names, main-module check, workspace and other packages', async () => {
    const entry = path.join(dir, 'entry.ts');
    compiled = await compiledScript(entry);
    expect(compiled).toMatch(
      /node_modules\/\.cache\/weft-compiled-scripts\/entry-[0-9a-f]{16}\.mjs$/,
    );
    const { stdout } = await run(process.execPath, [compiled], { timeout: 30_000 });
    expect(JSON.parse(stdout)).toEqual({
      main: true,
      whereAmI: pathToFileURL(path.join(dir, 'lib', 'where.ts')).href,
      folderAndFile: [path.join(dir, 'lib'), path.join(dir, 'lib', 'where.ts'), '1'],
      code: 'WEFT_INTERNAL',
      parsed: 3,
    });
  });

  it('compiles an entry once per process', async () => {
    const entry = path.join(dir, 'entry.ts');
    expect(await compiledScript(entry)).toBe(await compiledScript(entry));
  });
});
