/**
 * A failure of the last step, moving the finished project into place, leaves the disk as it was:
 * the staging folder is gone and an empty folder the user made is still there, empty, so the
 * command's "Nothing was written" holds. The move is made to fail here (no real disk fails on cue); every
 * other step runs on the real file system.
 */
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as FsPromises from 'node:fs/promises';

/** Which call of `rename` fails, counting from 1; the others run. */
let failingCall = 1;
let renameCalls = 0;

vi.mock('node:fs/promises', async (original) => {
  const real = await original<typeof FsPromises>();
  return {
    ...real,
    rename: vi.fn(async (from: string, to: string) => {
      renameCalls += 1;
      if (renameCalls === failingCall) {
        throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' });
      }
      await real.rename(from, to);
    }),
  };
});

const { createProject } = await import('../src/create-project.js');

describe('createProject when the finished project cannot be moved into place', () => {
  let work = '';
  beforeEach(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'create-weft-move-'));
    renameCalls = 0;
  });
  afterEach(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('leaves the empty folder the user made, empty, when a file fails to move into it half-way [claim:create-weft-readme-nothing-left] [claim:tsdoc-create-project-nothing-behind]', async () => {
    // An existing folder is filled where it is, one entry at a time: three are in place when the
    // fourth fails.
    failingCall = 4;
    const directory = path.join(work, 'empty');
    await mkdir(directory);
    const before = await stat(directory);
    await expect(
      createProject({ directory, model: 'scripted', memory: 'memory', source: 'registry' }),
    ).rejects.toThrow(/EIO/);
    expect(renameCalls).toBe(4);
    expect(await readdir(work)).toEqual(['empty']);
    expect(await readdir(directory)).toEqual([]);
    expect((await stat(directory)).ino).toBe(before.ino);
  });

  it('leaves nothing when the folder did not exist [claim:create-weft-readme-nothing-left] [claim:tsdoc-create-project-nothing-behind]', async () => {
    failingCall = 1;
    const directory = path.join(work, 'new');
    await expect(
      createProject({ directory, model: 'scripted', memory: 'memory', source: 'registry' }),
    ).rejects.toThrow(/EIO/);
    expect(await readdir(work)).toEqual([]);
  });
});
