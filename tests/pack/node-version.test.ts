/**
 * The Node.js these checks run on, and every `node` they start, is one the packages' engines
 * admit; under `npm run test:node-versions` it is the major that script installed, so a pass
 * there is a pass on that version and not on the machine's own.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  EXPECTED_NODE_MAJOR_ENV,
  SUPPORTED_NODE_RANGE,
  satisfiesRange,
} from '../../tooling/node-versions';

const expectedMajor = process.env[EXPECTED_NODE_MAJOR_ENV];

describe('the Node.js version under test', () => {
  it('is supported, and is the `node` the tarball checks start [claim:install-node-tested]', () => {
    expect(satisfiesRange(process.versions.node, SUPPORTED_NODE_RANGE)).toBe(true);
    const onPath = execFileSync('node', ['--version'], { encoding: 'utf8', timeout: 30_000 });
    expect(onPath.trim()).toBe(process.version);
  });

  it.runIf(expectedMajor)(
    'is the major test:node-versions installed [claim:cg-test-node-versions]',
    () => {
      expect(process.versions.node.split('.')[0]).toBe(expectedMajor);
    },
  );
});
