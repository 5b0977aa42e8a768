/**
 * The files a package manager needs beside package.json (pnpm's `pnpm-workspace.yaml`) are part
 * of the project createProject writes: they are in place with the rest, and a failure to write
 * them leaves nothing behind, so the command's "Nothing was written" holds for them too. The
 * write of that one file is made to fail here; every other step runs on the real file system.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as FsPromises from 'node:fs/promises';

const failing = vi.hoisted(() => ({ file: '' }));

vi.mock('node:fs/promises', async (original) => {
  const real = await original<typeof FsPromises>();
  return {
    ...real,
    writeFile: vi.fn(async (...args: Parameters<typeof real.writeFile>) => {
      const [target] = args;
      if (failing.file !== '' && String(target).endsWith(failing.file)) {
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
          code: 'ENOSPC',
        });
      }
      return real.writeFile(...args);
    }),
  };
});

const { createProject } = await import('../src/create-project.js');
const { ownVersion } = await import('../src/weft-packages.js');

describe("createProject and the package manager's own files", () => {
  let work = '';
  beforeEach(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'create-weft-manager-files-'));
    failing.file = '';
  });
  afterEach(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it("puts pnpm 9's settings in package.json, as pnpm before 10.5 refuses a pnpm-workspace.yaml without packages [claim:create-weft-readme-pnpm-before-10-5]", async () => {
    const project = await createProject({
      directory: path.join(work, 'with-pnpm-9'),
      model: 'scripted',
      memory: 'sqlite',
      source: 'registry',
      packageManager: 'pnpm',
      packageManagerVersion: '9.15.0',
    });
    expect(project.files).not.toContain('pnpm-workspace.yaml');
    const manifest = JSON.parse(
      await readFile(path.join(project.directory, 'package.json'), 'utf8'),
    ) as { name: string; pnpm?: unknown; allowScripts?: unknown };
    expect(manifest.pnpm).toEqual({ onlyBuiltDependencies: ['esbuild', 'better-sqlite3'] });
    // The rest of the manifest is as for any other manager.
    expect(manifest.name).toBe('with-pnpm-9');
    expect(manifest.allowScripts).toEqual({ 'better-sqlite3': true, esbuild: false });
  });

  it('writes pnpm-workspace.yaml with the project when pnpm will install it, and nothing extra for npm', async () => {
    const pnpm = await createProject({
      directory: path.join(work, 'with-pnpm'),
      model: 'scripted',
      memory: 'sqlite',
      source: 'registry',
      packageManager: 'pnpm',
    });
    expect(pnpm.files).toContain('pnpm-workspace.yaml');
    const yaml = await readFile(path.join(pnpm.directory, 'pnpm-workspace.yaml'), 'utf8');
    expect(yaml).toContain('  - better-sqlite3');
    expect(yaml).toContain(`  - '@weft/core@${ownVersion()}'`);

    const npm = await createProject({
      directory: path.join(work, 'with-npm'),
      model: 'scripted',
      memory: 'memory',
      source: 'registry',
    });
    expect(npm.files).not.toContain('pnpm-workspace.yaml');
    expect(await readdir(npm.directory)).not.toContain('pnpm-workspace.yaml');
  });

  it('leaves nothing behind when pnpm-workspace.yaml cannot be written [claim:gs-refuses] [claim:tsdoc-create-project-nothing-behind]', async () => {
    failing.file = 'pnpm-workspace.yaml';
    await expect(
      createProject({
        directory: path.join(work, 'my-agent'),
        model: 'scripted',
        memory: 'memory',
        source: 'registry',
        packageManager: 'pnpm',
      }),
    ).rejects.toThrow(/ENOSPC/);
    expect(await readdir(work)).toEqual([]);
  });
});
