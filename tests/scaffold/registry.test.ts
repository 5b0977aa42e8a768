/**
 * The published path, proven: every workspace package is packed and published to a private
 * verdaccio on 127.0.0.1 (storage in a temp folder, every other package redirected to the registry
 * this machine installs from). Then, as a user would, `npm create weft@latest` runs from that
 * registry into a temp folder outside the repository; the project installs, passes its own
 * tests and type-check, starts, and answers a posted message.
 */
import { mkdir, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewInstallScripts } from '../support/install-scripts';
import { OTHER_DEPENDENCIES } from '../../packages/create-weft/src/weft-packages';
import { packedPackages, workspacePackageNames } from '../../tooling/packed-packages';
import { startAgent } from './support/agent-process';
import { cleanEnv, runCommand } from '@weft-internal/test-support/commands';
import { postMessage } from './support/messages';
import { installManagers, managerEnv, OTHER_MANAGERS } from './support/package-managers';
import { startLocalRegistry, upstreamRegistry, type LocalRegistry } from './support/verdaccio';

const root = path.resolve(__dirname, '../..');
const MINUTE = 60_000;

/** Every package of the workspace, read from the root package.json. */

/** The version every Weft package is released under (changesets keeps them in step). */
async function weftVersion(): Promise<string> {
  const manifest = JSON.parse(
    await readFile(path.join(root, 'packages/create-weft/package.json'), 'utf8'),
  ) as { version: string };
  return manifest.version;
}

describe('npm create weft from a registry', () => {
  let work = '';
  let registry: LocalRegistry | undefined;
  let env: NodeJS.ProcessEnv = {};
  let project = '';

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'weft-registry-'));
    const tarballs = path.join(work, 'tarballs');
    await mkdir(tarballs);
    const names = await workspacePackageNames(root);
    const packed = await packedPackages(root, names, tarballs);
    expect(packed.map((item) => item.name).sort()).toEqual([...names].sort());

    registry = await startLocalRegistry(path.join(work, 'registry'), await upstreamRegistry());
    // Its own user config: the machine's npm settings are not changed. The npm cache is the
    // machine's, so third-party tarballs already there are not downloaded again.
    env = cleanEnv({
      npm_config_userconfig: registry.userconfig,
      npm_config_update_notifier: 'false',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
    });
    for (const item of packed) {
      await runCommand('npm', ['publish', path.join(tarballs, item.filename)], {
        cwd: work,
        env,
        timeoutMs: MINUTE,
      });
    }
  }, 10 * MINUTE);

  afterAll(async () => {
    await registry?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('serves what was published', async () => {
    const { stdout } = await runCommand('npm', ['view', 'create-weft', 'version'], {
      cwd: work,
      env,
      timeoutMs: MINUTE,
    });
    expect(stdout.trim()).toBe(await weftVersion());
  });

  it(
    'creates a project outside the repository that depends on the published versions [claim:gs-flags-after-dashes] [claim:install-after-publication] [claim:install-any-manager] [claim:create-weft-readme-what] [claim:create-weft-readme-defaults] [claim:create-weft-readme-name-flag]',
    async () => {
      const users = path.join(work, 'user');
      await mkdir(users);
      const created = await runCommand(
        'npm',
        // --name shows that the flags after `--` reach create-weft.
        [
          'create',
          '--yes',
          'weft@latest',
          'my-agent',
          '--',
          '--model',
          'scripted',
          '--name',
          'registry-agent',
        ],
        // npm create keeps what it runs in the cache under _npx; a cache of its own makes sure
        // it runs the create-weft just published, not one left by an earlier run.
        {
          cwd: users,
          env: { ...env, npm_config_cache: path.join(work, 'npx-cache') },
          timeoutMs: 8 * MINUTE,
        },
      );
      project = path.join(users, 'my-agent');
      const files = await readdir(project);
      // create-weft installed with npm, which ran it, and said what comes next in npm's words.
      expect(files).toContain('node_modules');
      expect(created.stdout).toContain('Installing with npm install');
      expect(created.stdout).toMatch(/npm test\s.*\n.*npm run dev/);
      expect(files.filter((file) => file !== 'node_modules').sort()).toEqual(
        [
          'package-lock.json',
          '.dockerignore',
          '.env.example',
          '.gitignore',
          'Dockerfile',
          'README.md',
          'package.json',
          'src',
          'test',
          'tsconfig.build.json',
          'tsconfig.json',
          'vitest.config.ts',
        ].sort(),
      );
      const manifest = JSON.parse(await readFile(path.join(project, 'package.json'), 'utf8')) as {
        name: string;
        dependencies: Record<string, string>;
      };
      expect(manifest.name).toBe('registry-agent');
      const range = `^${await weftVersion()}`;
      expect(manifest.dependencies).toEqual({
        '@weft/core': range,
        '@weft/testing': range,
        ...OTHER_DEPENDENCIES,
      });
      const installed = JSON.parse(
        await readFile(path.join(project, 'node_modules/@weft/core/package.json'), 'utf8'),
      ) as { version: string };
      expect(installed.version).toBe(await weftVersion());
      // npm 12 runs only the install scripts the project allows: it decides for each one.
      const { allowScripts } = manifest as { allowScripts?: Record<string, boolean> };
      expect(reviewInstallScripts(path.join(project, 'package-lock.json'), allowScripts)).toEqual({
        undecided: [],
        stale: [],
      });
    },
    9 * MINUTE,
  );

  it(
    'was installed from the registry, passes its own tests and type-check [claim:gs-cd-then-run] [claim:install-managers-tested]',
    async () => {
      expect(project).not.toBe('');
      const tests = await runCommand('npm', ['test'], { cwd: project, env, timeoutMs: 2 * MINUTE });
      expect(tests.stdout).toMatch(/Tests\s+\d+ passed/);
      expect(tests.stdout).not.toMatch(/failed/);
      await runCommand('npm', ['run', 'typecheck'], { cwd: project, env, timeoutMs: 2 * MINUTE });
    },
    10 * MINUTE,
  );

  it(
    'starts and answers a posted message with no network [claim:gs-files] [claim:gs-listening] [claim:gs-cd-then-run] [claim:install-testing-scripted-runs] [claim:create-weft-readme-what]',
    async () => {
      expect(project).not.toBe('');
      const agent = await startAgent(project, { ...env, PORT: '0' }, 2 * MINUTE);
      try {
        const answer = await postMessage(agent.url, { user: 'ada', text: 'Hello from a test' });
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({
          status: 'completed',
          reply: 'You said "Hello from a test". Your Weft agent is listening.',
        });
      } finally {
        await agent.stop();
      }
    },
    3 * MINUTE,
  );
  /**
   * The same path with pnpm, yarn and bun, each installed from the registry: `<manager> create
   * weft` runs the published create-weft, which installs with the manager that ran it and names
   * the next steps in its words; the project then passes its tests run by that manager.
   */
  describe('with every package manager', () => {
    let managersEnv: NodeJS.ProcessEnv = {};

    beforeAll(async () => {
      const bin = await installManagers(path.join(work, 'managers'), env, 4 * MINUTE);
      managersEnv = await managerEnv(
        path.join(work, 'home'),
        { url: registry?.url ?? '', npmrc: await readFile(registry?.userconfig ?? '', 'utf8') },
        bin,
        env,
      );
    }, 5 * MINUTE);

    const nextSteps = {
      pnpm: ['pnpm test', 'pnpm dev'],
      yarn: ['yarn test', 'yarn dev'],
      bun: ['bun run test', 'bun run dev'],
    } as const;

    const projects: Partial<Record<(typeof OTHER_MANAGERS)[number], string>> = {};

    // `yarn create` passes Yarn's default registry on to create-weft as npm_config_registry,
    // over the local one in ~/.npmrc and in the environment: the project's install found no
    // @weft/core there until create-weft left it out (install-environment.ts).
    // The three installs mostly wait on the registry and the disk, and share no folder or
    // cache: they run side by side.
    it.concurrent.each(OTHER_MANAGERS)(
      '%s create weft installs with it and says its commands [claim:install-any-manager] [claim:install-managers-tested] [claim:create-weft-readme-managers] [claim:create-weft-readme-yarn-registry]',
      async (manager) => {
        const users = path.join(work, `user-${manager}`);
        await mkdir(users);
        const created = await runCommand(
          manager,
          ['create', 'weft', 'my-agent', '--model', 'scripted', '--name', `${manager}-agent`],
          // A cold install through the local registry's proxy: slow on a loaded machine.
          { cwd: users, env: managersEnv, timeoutMs: 12 * MINUTE },
        );
        const project = path.join(users, 'my-agent');
        const manifest = JSON.parse(await readFile(path.join(project, 'package.json'), 'utf8')) as {
          name: string;
          dependencies: Record<string, string>;
        };
        expect(manifest.name).toBe(`${manager}-agent`);
        // The published create-weft wrote it (one run from a clone would vendor tarballs).
        expect(manifest.dependencies['@weft/core']).toBe(`^${await weftVersion()}`);
        // Installed by create-weft with the manager that ran it, which leaves its own lockfile.
        const files = await readdir(project);
        expect(files).toContain('node_modules');
        expect(files.filter((file) => /lock/.test(file))).toEqual([
          { pnpm: 'pnpm-lock.yaml', yarn: 'yarn.lock', bun: 'bun.lock' }[manager],
        ]);
        expect(created.stdout).toContain(`Installing with ${manager} install`);
        for (const step of nextSteps[manager]) expect(created.stdout).toContain(step);
        expect(created.stdout).not.toMatch(/\bnpm (install|test|run)\b/);
        projects[manager] = project;
      },
      15 * MINUTE,
    );

    it.each(OTHER_MANAGERS)(
      'the project %s created passes its tests, run by it [claim:install-any-manager] [claim:install-managers-tested] [claim:create-weft-readme-managers] [claim:create-weft-readme-pnpm-workspace]',
      async (manager) => {
        const project = projects[manager];
        expect(project).toBeDefined();
        const installState =
          manager === 'pnpm'
            ? path.join(project as string, 'node_modules/.pnpm-workspace-state-v1.json')
            : undefined;
        const installedAt = installState ? (await stat(installState)).mtimeMs : 0;
        const [program, ...args] = nextSteps[manager][0].split(' ');
        const tests = await runCommand(program as string, args, {
          cwd: project as string,
          env: managersEnv,
          timeoutMs: 2 * MINUTE,
        });
        expect(tests.stdout).toMatch(/Tests\s+\d+ passed/);
        expect(tests.stdout).not.toMatch(/failed/);
        // pnpm checks the install before a run and installs again when a setting changed since
        // (one did: see packageManagerFiles); an install rewrites the state it checks against.
        if (installState) expect((await stat(installState)).mtimeMs).toBe(installedAt);
      },
      15 * MINUTE,
    );
  });
});
