import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CreateWeftError } from '../src/errors.js';
import { installDependencies } from '../src/install-dependencies.js';
import { installEnvironment } from '../src/install-environment.js';
import {
  createCommand,
  detectPackageManager,
  detectPackageManagerVersion,
  formatCommand,
  installCommand,
  packageManagerFiles,
  packageManagerManifest,
  scriptCommand,
  shellPath,
} from '../src/package-manager.js';

describe('detectPackageManager', () => {
  it.each([
    ['npm/10.9.2 node/v22.12.0 linux x64 workspaces/false', 'npm'],
    ['pnpm/9.15.0 npm/? node/v22.12.0 linux x64', 'pnpm'],
    ['yarn/1.22.22 npm/? node/v24.1.0 darwin arm64', 'yarn'],
    ['bun/1.2.0 npm/? node/v24.3.0 linux x64', 'bun'],
  ])('reads %s as %s', (userAgent, manager) => {
    expect(detectPackageManager(userAgent)).toBe(manager);
  });

  it.each([[undefined], [''], ['deno/2.1.0 npm/? deno/2.1.0 linux x64'], ['garbage']])(
    'falls back to npm for %s',
    (userAgent) => {
      expect(detectPackageManager(userAgent)).toBe('npm');
    },
  );
});

describe('detectPackageManagerVersion', () => {
  it.each([
    ['pnpm/9.15.0 npm/? node/v22.12.0 linux x64', '9.15.0'],
    ['pnpm/10.5.0-rc.1 npm/? node/v22.12.0 linux x64', '10.5.0-rc.1'],
    ['npm/11.19.1 node/v20.20.2 linux x64 workspaces/false', '11.19.1'],
    [undefined, undefined],
    ['', undefined],
    ['pnpm', undefined],
    ['pnpm/? npm/? node/v22.12.0', undefined],
  ])('reads %j as %j', (userAgent, version) => {
    expect(detectPackageManagerVersion(userAgent)).toBe(version);
  });
});

describe("each manager's words", () => {
  it.each([
    ['npm', 'npm install', 'npm test', 'npm run dev', 'npm create weft@latest my-agent'],
    ['pnpm', 'pnpm install', 'pnpm test', 'pnpm dev', 'pnpm create weft my-agent'],
    ['yarn', 'yarn install', 'yarn test', 'yarn dev', 'yarn create weft my-agent'],
    // `bun test` would run bun's own test runner instead of the project's vitest.
    ['bun', 'bun install', 'bun run test', 'bun run dev', 'bun create weft my-agent'],
  ] as const)('%s [claim:install-any-manager]', (manager, install, test, dev, create) => {
    expect(formatCommand(installCommand(manager))).toBe(install);
    expect(formatCommand(scriptCommand(manager, 'test'))).toBe(test);
    expect(formatCommand(scriptCommand(manager, 'dev'))).toBe(dev);
    expect(createCommand(manager, 'my-agent')).toBe(create);
  });
});

describe('shellPath', () => {
  it.each([
    ['my-agent', 'linux', 'my-agent'],
    ['../agents/@acme/bot', 'linux', '../agents/@acme/bot'],
    ['My Agent', 'linux', "'My Agent'"],
    ["Ada's Agent", 'darwin', "'Ada'\\''s Agent'"],
    ['$HOME`x`', 'linux', "'$HOME`x`'"],
    ['-agent', 'linux', './-agent'],
    ['..\\agents\\bot', 'win32', '..\\agents\\bot'],
    ['C:\\My Agents\\bot', 'win32', '"C:\\My Agents\\bot"'],
    ['a&b', 'win32', '"a&b"'],
    ['-agent', 'win32', '.\\-agent'],
  ] as const)('gives %j on %s as %s, one argument of cd', (folder, platform, typed) => {
    expect(shellPath(folder, platform)).toBe(typed);
  });
});

describe('packageManagerFiles', () => {
  it('lets pnpm run the install scripts the project needs, and nothing else [claim:create-weft-readme-pnpm-workspace]', () => {
    const files = packageManagerFiles('pnpm', { nativeSqlite: true });
    expect([...files.keys()]).toEqual(['pnpm-workspace.yaml']);
    const yaml = files.get('pnpm-workspace.yaml') ?? '';
    expect(yaml).toContain('onlyBuiltDependencies:\n  - esbuild\n  - better-sqlite3\n');
    expect(yaml).toContain('allowBuilds:\n  esbuild: true\n  better-sqlite3: true\n');
    expect(
      packageManagerFiles('pnpm', { nativeSqlite: false }).get('pnpm-workspace.yaml'),
    ).not.toContain('better-sqlite3');
  });

  it("lists the Weft versions it pinned as exempt from pnpm's day of waiting, when given [claim:create-weft-readme-pnpm-workspace] [claim:cg-scaffold-findings-fixed-in-create-weft]", () => {
    const yaml =
      packageManagerFiles('pnpm', {
        nativeSqlite: false,
        pinned: ['@weft/core@1.2.3', '@weft/testing@1.2.3'],
      }).get('pnpm-workspace.yaml') ?? '';
    expect(yaml).toMatch(
      /\nminimumReleaseAgeExclude:\n {2}- '@weft\/core@1\.2\.3'\n {2}- '@weft\/testing@1\.2\.3'\n$/,
    );
    expect(
      packageManagerFiles('pnpm', { nativeSqlite: false }).get('pnpm-workspace.yaml'),
    ).not.toContain('minimumReleaseAgeExclude');
  });

  it.each(['npm', 'yarn', 'bun'] as const)('writes nothing for %s', (manager) => {
    expect(packageManagerFiles(manager, { nativeSqlite: true }).size).toBe(0);
    expect(packageManagerManifest(manager, { nativeSqlite: true, version: '1.0.0' })).toEqual({});
  });

  it.each(['10.5.0', '10.32.1', '11.0.0', '12.21.0', undefined, 'next'])(
    'writes pnpm-workspace.yaml for pnpm %j, which reads its settings there, and nothing in package.json [claim:create-weft-readme-pnpm-workspace]',
    (version) => {
      const options = { nativeSqlite: true, ...(version === undefined ? {} : { version }) };
      expect([...packageManagerFiles('pnpm', options).keys()]).toEqual(['pnpm-workspace.yaml']);
      expect(packageManagerManifest('pnpm', options)).toEqual({});
    },
  );

  it.each(['9.15.0', '10.0.0', '10.4.1'])(
    'gives pnpm %s, which refuses a pnpm-workspace.yaml without packages, the scripts it may run in package.json instead [claim:create-weft-readme-pnpm-before-10-5]',
    (version) => {
      expect(packageManagerFiles('pnpm', { nativeSqlite: true, version }).size).toBe(0);
      expect(packageManagerManifest('pnpm', { nativeSqlite: true, version })).toEqual({
        pnpm: { onlyBuiltDependencies: ['esbuild', 'better-sqlite3'] },
      });
      expect(packageManagerManifest('pnpm', { nativeSqlite: false, version })).toEqual({
        pnpm: { onlyBuiltDependencies: ['esbuild'] },
      });
    },
  );
});

describe('installEnvironment', () => {
  const base = { PATH: '/usr/bin', npm_config_user_agent: 'yarn/1.22.22 npm/? node/v24.1.0' };

  it.each(['https://registry.yarnpkg.com', 'https://registry.yarnpkg.com/'])(
    "drops the registry %s that yarn create passes on from Yarn's defaults [claim:cg-scaffold-findings-fixed-in-create-weft] [claim:cfg-npm-registry]",
    (registry) => {
      expect(installEnvironment('yarn', { ...base, npm_config_registry: registry })).toEqual(base);
    },
  );

  it('keeps a registry the user chose, and every other variable [claim:create-weft-readme-yarn-registry] [claim:cfg-npm-registry]', () => {
    const env = { ...base, npm_config_registry: 'https://npm.example.com/' };
    expect(installEnvironment('yarn', env)).toEqual(env);
  });

  it.each(['npm', 'pnpm', 'bun'] as const)(
    'leaves the environment of %s alone [claim:cfg-npm-registry]',
    (manager) => {
      const env = { ...base, npm_config_registry: 'https://registry.yarnpkg.com' };
      expect(installEnvironment(manager, env)).toEqual(env);
    },
  );
});

describe('installDependencies', () => {
  let bin = '';

  /** A stand-in `manager` on PATH that runs `script`. */
  async function fakeManager(manager: string, script: string): Promise<void> {
    const file = path.join(bin, manager);
    await writeFile(file, `#!/bin/sh\n${script}\n`);
    await chmod(file, 0o755);
  }

  const fakePnpm = (script: string) => fakeManager('pnpm', script);

  beforeEach(async () => {
    bin = await mkdtemp(path.join(tmpdir(), 'create-weft-pm-'));
    vi.stubEnv('PATH', `${bin}${path.delimiter}${process.env.PATH ?? ''}`);
  });

  afterEach(async () => {
    vi.unstubAllEnvs();
    await rm(bin, { recursive: true, force: true });
  });

  it.skipIf(process.platform === 'win32')(
    'runs the manager install in the project folder [claim:tsdoc-cw-install-runs]',
    async () => {
      await fakePnpm('echo "$@" > ran.txt');
      await installDependencies({ manager: 'pnpm', directory: bin, stdio: 'ignore' });
      expect(await readFile(path.join(bin, 'ran.txt'), 'utf8')).toBe('install\n');
    },
  );

  it.skipIf(process.platform === 'win32')(
    'stops a hung install at its deadline and says what to run [claim:tsdoc-cw-install-stays] [claim:tsdoc-cw-install-timeout]',
    async () => {
      await fakePnpm('exec sleep 30');
      const started = Date.now();
      const failure = installDependencies({
        manager: 'pnpm',
        directory: bin,
        stdio: 'ignore',
        timeoutMs: 300,
      });
      await expect(failure).rejects.toThrow(CreateWeftError);
      await expect(failure).rejects.toThrow(
        /^install: pnpm install did not finish within 0.3 s and was stopped; fix: cd into the project and run pnpm install \[WEFT_CREATE_INSTALL_FAILED\]$/,
      );
      expect(Date.now() - started).toBeLessThan(10_000);
    },
  );

  it.skipIf(process.platform === 'win32')(
    'reports a failed install [claim:tsdoc-cw-install-stays]',
    async () => {
      await fakePnpm('exit 3');
      await expect(
        installDependencies({ manager: 'pnpm', directory: bin, stdio: 'ignore' }),
      ).rejects.toThrow(
        /^install: pnpm install failed \(exit code 3\); fix: .* pnpm install \[WEFT_CREATE_INSTALL_FAILED\]$/,
      );
    },
  );

  it.skipIf(process.platform === 'win32')(
    "runs yarn's install without the registry yarn create exported from Yarn's defaults [claim:create-weft-readme-yarn-registry]",
    async () => {
      await fakeManager(
        'yarn',
        'echo "${npm_config_registry:-unset} $npm_config_user_agent" > ran.txt',
      );
      vi.stubEnv('npm_config_registry', 'https://registry.yarnpkg.com');
      vi.stubEnv('npm_config_user_agent', 'yarn/1.22.22');
      await installDependencies({ manager: 'yarn', directory: bin, stdio: 'ignore' });
      expect(await readFile(path.join(bin, 'ran.txt'), 'utf8')).toBe('unset yarn/1.22.22\n');
    },
  );

  it('names a manager that is not installed [claim:tsdoc-cw-install-stays]', async () => {
    vi.stubEnv('PATH', bin);
    await expect(
      installDependencies({ manager: 'bun', directory: bin, stdio: 'ignore' }),
    ).rejects.toThrow(
      /^install: bun could not be started \(ENOENT\); fix: .* bun install \[WEFT_CREATE_INSTALL_FAILED\]$/,
    );
  });
});
