/**
 * The path from a clone, proven: `npm run create-agent` packs the workspace packages into the
 * new project's vendor/ folder, so the project, written to a temp folder outside the
 * repository, installs and runs with no access to the repository's sources. This one uses the
 * OpenAI provider against a fake OpenAI-compatible server on 127.0.0.1, read from the
 * environment as the generated .env.example describes.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_ENTRY, startAgent, startAgentExpectingExit } from './support/agent-process';
import { cleanEnv, runCommand } from '@weft-internal/test-support/commands';
import { reviewInstallScripts } from '../support/install-scripts';
import { OTHER_DEPENDENCIES } from '../../packages/create-weft/src/weft-packages';
import { startFakeOpenAI } from './support/fake-openai';
import {
  EXPECTED_NODE_MAJOR_ENV,
  SUPPORTED_NODE_RANGE,
  satisfiesRange,
} from '../../tooling/node-versions';
import { postMessage } from './support/messages';
import { filesIn, projectImage, rehearseImage } from './support/image-rehearsal';
import { imageNodeMajor } from '../../packages/create-weft/test/support/dockerfile';

const root = path.resolve(__dirname, '../..');
const MINUTE = 60_000;
const expectedMajor = process.env[EXPECTED_NODE_MAJOR_ENV];
const IMAGE_NODE_MAJOR = imageNodeMajor(
  readFileSync(path.join(root, 'packages/create-weft/templates/base/Dockerfile'), 'utf8'),
);

describe('npm run create-agent from a clone', () => {
  let work = '';
  let project = '';
  const env = cleanEnv({ npm_config_update_notifier: 'false', npm_config_audit: 'false' });

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'weft-clone-'));
    project = path.join(work, 'clone-agent');
    await runCommand(
      'npm',
      // Installed below, offline from the npm cache, rather than by create-weft itself.
      [
        'run',
        'create-agent',
        '--',
        project,
        '--model',
        'openai',
        '--memory',
        'memory',
        '--skip-install',
      ],
      { cwd: root, env, timeoutMs: 4 * MINUTE },
    );
  }, 5 * MINUTE);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('depends on tarballs inside the project [claim:gs-flags-after-dashes] [claim:gs-clone-creator] [claim:install-create-agent-vendor]', async () => {
    const manifest = JSON.parse(await readFile(path.join(project, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const { version } = JSON.parse(
      await readFile(path.join(root, 'packages/core/package.json'), 'utf8'),
    ) as { version: string };
    // npm names a tarball after the package: @weft/core 1.2.3 is weft-core-1.2.3.tgz.
    const tarballs = ['core', 'model-openai', 'testing'].map(
      (name) => `weft-${name}-${version}.tgz`,
    );
    expect(manifest.dependencies).toEqual({
      '@weft/core': `file:vendor/${tarballs[0]}`,
      '@weft/model-openai': `file:vendor/${tarballs[1]}`,
      '@weft/testing': `file:vendor/${tarballs[2]}`,
      // From the registry: pino (src/agent.ts takes its Logger), express and cors (the route's server).
      ...OTHER_DEPENDENCIES,
    });
    expect((await readdir(path.join(project, 'vendor'))).sort()).toEqual(tarballs);
  });

  it('runs on a Node.js version it supports (under test:node-versions, the one asked for) [claim:install-node-tested]', async () => {
    const manifest = JSON.parse(await readFile(path.join(project, 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    expect(manifest.engines.node).toBe(SUPPORTED_NODE_RANGE);
    const { stdout } = await runCommand('node', ['--version'], {
      cwd: project,
      env,
      timeoutMs: MINUTE,
    });
    expect(satisfiesRange(stdout.trim(), SUPPORTED_NODE_RANGE)).toBe(true);
    if (expectedMajor) expect(stdout.trim()).toMatch(new RegExp(`^v${expectedMajor}\\.`));
  });

  it(
    'installs, passes its own tests and type-check [claim:gs-project-tests] [claim:gs-scripts] [claim:install-create-agent-vendor] [claim:install-node-tested]',
    async () => {
      // Everything third-party is in the npm cache since the workspace's own install.
      await runCommand('npm', ['install', '--prefer-offline'], {
        cwd: project,
        env,
        timeoutMs: 4 * MINUTE,
      });
      const installed = JSON.parse(
        await readFile(path.join(project, 'node_modules/@weft/core/package.json'), 'utf8'),
      ) as { name: string };
      expect(installed.name).toBe('@weft/core');
      // npm 12 runs only the install scripts the project allows: it decides for each one.
      const { allowScripts } = JSON.parse(
        await readFile(path.join(project, 'package.json'), 'utf8'),
      ) as { allowScripts?: Record<string, boolean> };
      expect(reviewInstallScripts(path.join(project, 'package-lock.json'), allowScripts)).toEqual({
        undecided: [],
        stale: [],
      });
      // A copy from the tarball, not a link back into the repository.
      expect(await readdir(path.join(project, 'node_modules/@weft/core'))).not.toContain('test');
      const tests = await runCommand('npm', ['test'], { cwd: project, env, timeoutMs: 2 * MINUTE });
      expect(tests.stdout).toMatch(/Tests\s+\d+ passed/);
      await runCommand('npm', ['run', 'typecheck'], { cwd: project, env, timeoutMs: 2 * MINUTE });
      // Built once here; the registry test covers `npm start`, which builds before each start.
      await runCommand('npm', ['run', 'build'], { cwd: project, env, timeoutMs: 2 * MINUTE });
    },
    8 * MINUTE,
  );

  it(
    'says at start-up that the key is missing, and exits [claim:gs-missing-key] [claim:gs-env-first]',
    async () => {
      const result = await startAgentExpectingExit(
        project,
        { ...env, OPENAI_API_KEY: '', PORT: '0' },
        MINUTE,
        BUILT_ENTRY,
      );
      expect(result.code).toBe(1);
      expect(result.output).toContain('Cannot start the agent. OPENAI_API_KEY is not set');
    },
    3 * MINUTE,
  );

  it(
    'says at start-up that the model server does not answer, and exits [claim:gs-env-first] [claim:prod-health-template]',
    async () => {
      // A port that was free a moment ago: nothing listens there.
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const { port } = probe.address() as AddressInfo;
      await new Promise<void>((resolve) => probe.close(() => resolve()));
      const result = await startAgentExpectingExit(
        project,
        {
          ...env,
          OPENAI_API_KEY: 'sk-test',
          OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
          PORT: '0',
        },
        MINUTE,
        BUILT_ENTRY,
      );
      expect(result.code).toBe(1);
      expect(result.output).toContain(
        'Cannot start the agent. Runtime.start: model provider "openai" is not healthy',
      );
    },
    3 * MINUTE,
  );

  it(
    'reads the key and base URL from .env and answers with the model [claim:gs-dotenv] [claim:gs-env-first]',
    async () => {
      const openai = await startFakeOpenAI();
      await writeFile(
        path.join(project, '.env'),
        `OPENAI_API_KEY=sk-from-env-file\nOPENAI_BASE_URL=${openai.baseUrl}\nOPENAI_MODEL=fake-model\nPORT=0\n`,
      );
      const agent = await startAgent(project, env, MINUTE, BUILT_ENTRY).catch(
        async (error: unknown) => {
          await openai.close();
          throw error;
        },
      );
      try {
        const answer = await postMessage(agent.url, { user: 'ada', text: 'Hello' });
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({
          status: 'completed',
          reply: 'Fake model heard: Hello',
        });
        expect(openai.requests.length).toBeGreaterThanOrEqual(2);
        for (const request of openai.requests) {
          expect(request).toEqual({
            model: 'fake-model',
            authorization: 'Bearer sk-from-env-file',
          });
        }
      } finally {
        await agent.stop();
        await openai.close();
      }
    },
    3 * MINUTE,
  );

  // The image runs the Node.js its FROM lines name, whatever runs the test: test:node-versions
  // follows it on that major only, the machine's own run on the machine's.
  it.skipIf(expectedMajor !== undefined && Number(expectedMajor) !== IMAGE_NODE_MAJOR)(
    'runs from its image: the Dockerfile, followed without a container engine, gives an agent that answers [claim:gs-dockerfile]',
    async () => {
      const image = await rehearseImage(projectImage(project), work, env, 4 * MINUTE);
      // The built agent and its production dependencies only: no sources, tests or dev tools.
      expect((await readdir(image.appDir)).sort()).toEqual([
        'data',
        'dist',
        'node_modules',
        'package.json',
      ]);
      expect(await readdir(path.join(image.appDir, 'node_modules'))).not.toContain('vitest');
      expect(await filesIn(path.join(image.appDir, 'dist'))).toContain('main.js');
      expect(image.cmd).toEqual(['node', 'dist/main.js']);
      const openai = await startFakeOpenAI();
      const [, ...args] = image.cmd;
      // As `docker run -e`: the key and the model server come from outside the image, and a
      // free port instead of the image's own.
      const agent = await startAgent(
        image.appDir,
        {
          ...env,
          ...image.env,
          OPENAI_API_KEY: 'sk-in-image',
          OPENAI_BASE_URL: openai.baseUrl,
          OPENAI_MODEL: 'fake-model',
          PORT: '0',
        },
        MINUTE,
        [process.execPath, ...args],
      ).catch(async (error: unknown) => {
        await openai.close();
        throw error;
      });
      try {
        const answer = await postMessage(agent.url, { user: 'ada', text: 'Hello' });
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({
          status: 'completed',
          reply: 'Fake model heard: Hello',
        });
      } finally {
        await agent.stop();
        await openai.close();
      }
    },
    8 * MINUTE,
  );
});
