/**
 * Guards "Use from CommonJS" on the Installation page: examples/commonjs/agent.cjs, shown
 * there, runs in a CommonJS project that installed the packed tarballs of @weft/core,
 * @weft/testing and @weft/plugin-chat, loading their .cjs builds.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packedPackages } from '../../tooling/packed-packages';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');
const PACKAGES = ['@weft/core', '@weft/testing', '@weft/plugin-chat'];
const TIMEOUT = 120_000;

describe('the CommonJS example', () => {
  let work = '';
  let project = '';

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'weft-commonjs-'));
    project = path.join(work, 'project');
    const packed = await packedPackages(root, PACKAGES, work);
    await mkdir(project);
    // No "type" field: .js files of this project would be CommonJS too.
    await writeFile(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'weft-commonjs-check', version: '1.0.0', private: true }),
    );
    // Everything the tarballs depend on is in the npm cache since the workspace install.
    await run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        ...packed.map((item) => path.join(work, item.filename)),
        // The chat plugin's route needs the HTTP server, whose peers an agent installs itself.
        'express@^5.1.0',
        'cors@^2.8.5',
      ],
      { cwd: project },
    );
    await copyFile(path.join(root, 'examples/commonjs/agent.cjs'), path.join(project, 'agent.cjs'));
  }, 4 * TIMEOUT);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it(
    'resolves each package to its CommonJS build [claim:install-cjs-exports] [claim:install-packages-esm-cjs]',
    async () => {
      const script = `for (const name of ${JSON.stringify(PACKAGES)}) console.log(require.resolve(name));`;
      const { stdout } = await run(process.execPath, ['-e', script], { cwd: project });
      const resolved = stdout.trim().split('\n');
      expect(resolved).toHaveLength(PACKAGES.length);
      for (const file of resolved)
        expect(file).toMatch(/node_modules\/@weft\/[\w-]+\/dist\/index\.cjs$/);
    },
    TIMEOUT,
  );

  it(
    'starts the runtime with require() and answers a chat message [claim:install-cjs-test] [claim:core-readme-esm-cjs-types] [claim:gs-existing-project-cjs]',
    async () => {
      const { stdout } = await run(process.execPath, ['agent.cjs'], {
        cwd: project,
        env: { ...process.env, WEFT_LOG_LEVEL: 'silent' },
        timeout: TIMEOUT,
      });
      expect(JSON.parse(stdout.trim().split('\n').at(-1) ?? '')).toEqual({
        taskId: expect.any(String),
        status: 'completed',
        reply: 'Hello from CommonJS!',
      });
    },
    TIMEOUT,
  );
});
