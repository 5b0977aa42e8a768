/**
 * The `@example` blocks of the package's TSDoc type-check against its sources, as the README's
 * samples do in tests/unit/readme-samples.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../../..');
const sources = path.resolve(__dirname, '../src');
let dir: string | undefined;

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The ```ts blocks inside `@example` tags of a source file, without the comment's stars. */
function examplesOf(source: string): string[] {
  return [...source.matchAll(/@example\s*\n\s*\*\s*```ts\n([\s\S]*?)\n\s*\*\s*```/g)].map((match) =>
    (match[1] ?? '')
      .split('\n')
      .map((line) => line.replace(/^\s*\* ?/, ''))
      .join('\n'),
  );
}

describe('@weft/plugin-mcp TSDoc examples', () => {
  it('type-check against the package', async () => {
    const examples: string[] = [];
    for (const file of (await readdir(sources)).filter((name) => name.endsWith('.ts'))) {
      examples.push(...examplesOf(await readFile(path.join(sources, file), 'utf8')));
    }
    expect(examples.length).toBeGreaterThan(0);
    // Inside the repository, so `@weft/*` resolve to the workspace packages.
    dir = await mkdtemp(path.join(root, '.tsdoc-mcp-'));
    for (const [index, code] of examples.entries()) {
      await writeFile(path.join(dir, `example-${index + 1}.ts`), `${code}\nexport {};\n`);
    }
    await writeFile(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    await writeFile(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: '../packages/tsconfig.base.json',
        compilerOptions: { customConditions: ['weft-source'], noEmit: true },
        include: ['*.ts'],
      }),
    );
    const result = await run('npx', ['tsc', '-p', path.join(dir, 'tsconfig.json')], {
      cwd: root,
    }).catch((error: { stdout: string }) => ({ stdout: error.stdout, failed: true }));
    expect('failed' in result ? result.stdout : '').toBe('');
  }, 120_000);
});
