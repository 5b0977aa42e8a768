/**
 * The `@example` blocks of this package's TSDoc, and of `@weft/plugin-chat` whose reply step it
 * shares, type-check against the sources, as the README's samples do in
 * tests/unit/readme-samples.test.ts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { typeCheckModules } from '../../../tests/unit/support/type-check-modules.js';
import { packageExamples } from '../../../tests/unit/support/tsdoc-examples.js';
const root = path.resolve(__dirname, '../../..');
let dir: string | undefined;

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('@weft/plugin-websocket and @weft/plugin-chat TSDoc examples', () => {
  it('type-check against the packages', async () => {
    const modules = new Map<string, string>();
    for (const name of ['plugin-websocket', 'plugin-chat']) {
      const examples = await packageExamples(path.join(root, 'packages', name, 'src'));
      expect(examples.size, name).toBeGreaterThan(0);
      for (const [key, code] of examples) modules.set(`${name}-${key}`, code);
    }
    // Inside the repository, so `@weft/*` resolve to the workspace packages.
    dir = await mkdtemp(path.join(root, '.tsdoc-websocket-'));
    expect(await typeCheckModules(root, dir, modules)).toBe('');
  }, 120_000);
});
