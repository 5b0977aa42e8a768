/**
 * tooling/run-when-main.ts runs a command's job and reports its failure in one line. A job that
 * throws before its first await (scripts/generate-assets.ts given a generator name it does not
 * know) printed an uncaught exception's stack instead.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');

describe('runWhenMain', () => {
  it('reports a job that throws at once in one line, exiting 1', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'scripts/generate-assets.ts'), 'no-such-generator'],
      { cwd: root, encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe(
      'Could not generate the build assets: no generator named no-such-generator; name one of pwa-assets, diagrams, whitepaper, hover-types',
    );
  }, 90_000);
});
