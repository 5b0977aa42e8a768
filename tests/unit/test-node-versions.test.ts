/**
 * `npm run test:node-versions` (scripts/test-node-versions.ts): which binary it installs for each
 * major and where, which suites it runs again on it and with what environment, and how many
 * majors run at a time. The installs and the suites themselves are not run here: they need the
 * registry and take many minutes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { environmentFor, laneCount, MAJOR_SUITES } from '../../scripts/test-node-versions';
import {
  EXPECTED_NODE_MAJOR_ENV,
  EXTRA_TESTED_NODE_MAJORS,
  NODE_BINARY_PACKAGE,
  nodeInstallPaths,
} from '../../tooling/node-versions';

const root = path.resolve(__dirname, '../..');
const scripts = (
  JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;

describe('npm run test:node-versions', () => {
  it('installs node-<platform>-<arch> for 22, 24 and 26 into .cache/node-versions/ [claim:cg-test-node-versions]', () => {
    expect(scripts['test:node-versions']).toBe('tsx scripts/test-node-versions.ts');
    expect(NODE_BINARY_PACKAGE).toBe(`node-${process.platform}-${process.arch}`);
    expect([...EXTRA_TESTED_NODE_MAJORS]).toEqual([22, 24, 26]);
    expect(nodeInstallPaths(24)).toEqual({
      folder: path.join(root, '.cache/node-versions/24'),
      bin: path.join(root, '.cache/node-versions/24/node_modules', NODE_BINARY_PACKAGE, 'bin'),
    });
  });

  it('puts that binary first on PATH and names the major the tests must run on [claim:cg-test-node-versions]', () => {
    const env = environmentFor(24, '/opt/node-24/bin', { PATH: '/usr/bin', HOME: '/home/a' });
    expect(env).toEqual({
      PATH: `/opt/node-24/bin${path.delimiter}/usr/bin`,
      HOME: '/home/a',
      [EXPECTED_NODE_MAJOR_ENV]: '24',
    });
    expect(EXPECTED_NODE_MAJOR_ENV).toBe('WEFT_EXPECT_NODE_MAJOR');
  });

  it('runs test:packages less its static publish checks and the clone route, then the generated project [claim:cg-test-node-versions]', () => {
    const [packages, project] = MAJOR_SUITES;
    expect(MAJOR_SUITES).toHaveLength(2);
    // test:packages' own command, with the two files left out.
    expect(`${packages?.args.slice(0, 4).join(' ')}`).toBe(scripts['test:packages']);
    expect(packages?.args.slice(4)).toEqual([
      '--exclude',
      'tests/pack/publish-checks.test.ts',
      '--exclude',
      'tests/pack/mcp-docs-clone-route.test.ts',
    ]);
    expect(project?.args.at(-1)).toBe('tests/scaffold/clone.test.ts');
  });

  it('runs as many majors at a time as the machine has cores [claim:cg-test-node-versions]', () => {
    expect(laneCount(3, 2)).toBe(2);
    expect(laneCount(3, 8)).toBe(3);
    expect(laneCount(1, 2)).toBe(1);
  });
});
