/**
 * A failure of the last step, moving the finished project into place, leaves the disk as it was:
 * the staging folder is gone and an empty folder the user made is there again, so the command's
 * "Nothing was written" holds. The move is made to fail here (no real disk fails on cue); every
 * other step runs on the real file system.
 */
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as FsPromises from 'node:fs/promises';

vi.mock('node:fs/promises', async (original) => {
  const real = await original<typeof FsPromises>();
  return {
    ...real,
    rename: vi.fn(async () => {
      throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' });
    }),
  };
});

const { createProject } = await import('../src/create-project.js');

describe('createProject when the finished project cannot be moved into place', () => {
  let work = '';
  beforeEach(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'create-weft-move-'));
  });
  afterEach(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('leaves the empty folder the user made, and no staging folder beside it', async () => {
    const directory = path.join(work, 'empty');
    await mkdir(directory);
    await expect(
      createProject({ directory, model: 'scripted', memory: 'memory', source: 'registry' }),
    ).rejects.toThrow(/EIO/);
    expect(await readdir(work)).toEqual(['empty']);
    expect(await readdir(directory)).toEqual([]);
  });

  it('leaves nothing when the folder did not exist', async () => {
    const directory = path.join(work, 'new');
    await expect(
      createProject({ directory, model: 'scripted', memory: 'memory', source: 'registry' }),
    ).rejects.toThrow(/EIO/);
    expect(await readdir(work)).toEqual([]);
  });
});
