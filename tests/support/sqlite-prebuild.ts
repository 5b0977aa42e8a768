import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The repository's own better-sqlite3 binary, which `npm ci` built, offered to prebuild-install
 * (better-sqlite3's install script) as a local prebuilt package: installing better-sqlite3 again
 * in a fresh project then unpacks it instead of compiling SQLite a second time, about a minute of
 * CPU on a machine that cannot fetch GitHub's prebuilt binaries. It is offered only when it loads
 * on the running Node.js: on another major the install still builds its own from source.
 *
 * Answers the variables to add to the install's environment, none when there is nothing to offer.
 */
export async function localSqlitePrebuild(
  root: string,
  folder: string,
): Promise<NodeJS.ProcessEnv> {
  const packageDir = path.join(root, 'node_modules/better-sqlite3');
  try {
    await run(process.execPath, ['-e', "new (require('better-sqlite3'))(':memory:').close()"], {
      cwd: root,
      timeout: 30_000,
    });
  } catch {
    return {};
  }
  const { version } = JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  // The name prebuild-install looks for (glibc Linux; elsewhere it finds none and builds).
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  await mkdir(folder, { recursive: true });
  await run(
    'tar',
    ['-czf', path.join(folder, name), '-C', packageDir, 'build/Release/better_sqlite3.node'],
    {
      timeout: 30_000,
    },
  );
  return { npm_config_better_sqlite3_local_prebuilds: folder };
}
