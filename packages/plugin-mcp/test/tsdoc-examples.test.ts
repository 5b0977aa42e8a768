/**
 * The `@example` blocks of the package's TSDoc type-check against its sources, as the README's
 * samples do in tests/unit/readme-samples.test.ts.
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

describe('@weft/plugin-mcp TSDoc examples', () => {
  it('type-check against the package', async () => {
    const modules = await packageExamples(path.resolve(__dirname, '../src'));
    expect(modules.size).toBeGreaterThan(0);
    // Inside the repository, so `@weft/*` resolve to the workspace packages.
    dir = await mkdtemp(path.join(root, '.tsdoc-mcp-'));
    expect(await typeCheckModules(root, dir, modules)).toBe('');
  }, 120_000);
});
