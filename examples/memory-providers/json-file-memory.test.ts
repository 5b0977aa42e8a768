import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { JsonFileMemoryProvider } from './json-file-memory.js';

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

it('JsonFileMemoryProvider answers content nested thousands of levels deep, as SQLite does', async () => {
  const memory = new JsonFileMemoryProvider(
    join(directory, 'deep-content.json'),
  );
  await memory.init();
  let content: Record<string, unknown> = { leaf: true };
  for (let level = 0; level < 2500; level += 1) content = { inner: content };
  const stored = await memory.store({
    space: 'room',
    kind: 'note',
    content,
    metadata: {},
  });
  const [found] = await memory.query({ space: 'room' });
  // Counted in a loop: a recursive deep-equality check would itself run out of stack.
  expect([depthOf(stored.content), depthOf(found?.content)]).toEqual([
    2500, 2500,
  ]);
  await memory.shutdown();
});
