import type * as FilePromises from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_MEMORY_JSON_DEPTH } from '@weft/core';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { JsonFileMemoryProvider } from './json-file-memory.js';

// Every file write and rename the sample makes, in order, to see how it saves.
const fileCalls = vi.hoisted((): string[][] => []);
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof FilePromises>();
  return {
    ...actual,
    writeFile: ((...args: Parameters<typeof actual.writeFile>) => {
      fileCalls.push(['write', String(args[0])]);
      return actual.writeFile(...args);
    }) as typeof actual.writeFile,
    rename: ((from: string, to: string) => {
      fileCalls.push(['rename', from, to]);
      return actual.rename(from, to);
    }) as typeof actual.rename,
  };
});

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'weft-json-file-memory-'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

/** How many `inner` objects hold the leaf, counted without recursion. */
function depthOf(value: unknown): number {
  let depth = 0;
  let current = value;
  while (
    typeof current === 'object' &&
    current !== null &&
    'inner' in current
  ) {
    current = current.inner;
    depth += 1;
  }
  return depth;
}

it('JsonFileMemoryProvider stores content nested to MAX_MEMORY_JSON_DEPTH and answers it whole, and refuses one level more, as every store does', async () => {
  const memory = new JsonFileMemoryProvider(
    join(directory, 'deep-content.json'),
  );
  await memory.init();
  // The outermost object is level 1: the leaf's object inside 99 others is level 100.
  const nested = (wraps: number): Record<string, unknown> => {
    let content: Record<string, unknown> = { leaf: true };
    for (let level = 0; level < wraps; level += 1) content = { inner: content };
    return content;
  };
  const stored = await memory.store({
    space: 'room',
    kind: 'note',
    content: nested(MAX_MEMORY_JSON_DEPTH - 1),
    metadata: {},
  });
  const [found] = await memory.query({ space: 'room' });
  expect([depthOf(stored.content), depthOf(found?.content)]).toEqual([
    MAX_MEMORY_JSON_DEPTH - 1,
    MAX_MEMORY_JSON_DEPTH - 1,
  ]);
  await expect(
    memory.store({
      space: 'room',
      kind: 'note',
      content: nested(MAX_MEMORY_JSON_DEPTH),
      metadata: {},
    }),
  ).rejects.toMatchObject({ code: 'WEFT_MEMORY_INVALID' });
  expect(await memory.query({ space: 'room' })).toHaveLength(1);
  await memory.shutdown();
});

it('JsonFileMemoryProvider writes each version of the file to its own temporary path and renames it into place, one change after another [claim:mpo-json-file-temp]', async () => {
  const path = join(directory, 'saves.json');
  const memory = new JsonFileMemoryProvider(path);
  await memory.init();
  fileCalls.length = 0;
  await Promise.all(
    Array.from({ length: 5 }, (_, index) =>
      memory.store({
        space: 'room',
        kind: 'note',
        content: index,
        metadata: {},
      }),
    ),
  );
  await memory.shutdown();
  // Write a new temporary file, rename it over the file, then the next change.
  const temporaries = fileCalls
    .filter(([call]) => call === 'write')
    .map(([, file]) => file);
  expect(temporaries).toHaveLength(5);
  expect(new Set(temporaries).size).toBe(5);
  for (const temporary of temporaries) {
    expect(temporary).toMatch(/^.*saves\.json\.[0-9a-f-]{36}\.tmp$/);
  }
  expect(fileCalls).toEqual(
    temporaries.flatMap((temporary) => [
      ['write', temporary],
      ['rename', temporary, path],
    ]),
  );
});
