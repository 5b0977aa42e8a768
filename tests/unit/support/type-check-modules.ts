/**
 * Type-checks code samples (README blocks, TSDoc examples) as modules of a scratch ESM project
 * inside the repository, so `@weft/*` resolve to the workspace packages' sources.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Writes each sample to `dir` as `<name>.ts` and runs tsc over them with the packages' base
 * settings. `dir` must be a direct child of the repository root.
 *
 * @returns tsc's report: empty when every sample type-checks.
 */
export async function typeCheckModules(
  root: string,
  dir: string,
  modules: ReadonlyMap<string, string>,
): Promise<string> {
  for (const [name, code] of modules) {
    await writeFile(path.join(dir, `${name}.ts`), `${code}\nexport {};\n`);
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
  return 'failed' in result ? result.stdout : '';
}
