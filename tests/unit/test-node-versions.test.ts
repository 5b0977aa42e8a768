/**
 * `npm run test:node-versions` (scripts/test-node-versions.ts): which binary it installs for each
 * major and where, which suites it runs again on it and with what environment, and how many
 * majors run at a time. The installs and the suites themselves are not run here: they need the
 * registry and take many minutes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  environmentFor,
  laneCount,
  MAJOR_SUITES,
  runHeldBack,
} from '../../scripts/test-node-versions';
import {
  EXPECTED_NODE_MAJOR_ENV,
  EXTRA_TESTED_NODE_MAJORS,
  NODE_BINARY_PACKAGE,
  nodeInstallPaths,
} from '../../tooling/node-versions';
import { imageNodeMajor } from '../../packages/create-weft/test/support/dockerfile';

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

  it('puts that binary first on PATH, builds native addons against its headers and names the major the tests must run on [claim:cg-test-node-versions]', () => {
    const env = environmentFor(24, '/opt/node-24/bin', { PATH: '/usr/bin', HOME: '/home/a' });
    expect(env).toEqual({
      PATH: `/opt/node-24/bin${path.delimiter}/usr/bin`,
      HOME: '/home/a',
      npm_config_nodedir: '/opt/node-24',
      CFLAGS: '-O0',
      CXXFLAGS: '-O0',
      [EXPECTED_NODE_MAJOR_ENV]: '24',
    });
    expect(EXPECTED_NODE_MAJOR_ENV).toBe('WEFT_EXPECT_NODE_MAJOR');
  });

  it("reuses the SQLite object npm ci compiled: .ci/run puts ccache's compiler wrappers first on PATH before npm ci, and each major keeps that PATH behind its own binary and compiles with npm ci's flags [claim:cg-sqlite-ccache]", () => {
    const lines = readFileSync(path.join(root, '.ci/run'), 'utf8').split('\n');
    const install = lines.findIndex((line) => /apt-get install -y -qq ccache\b/.test(line));
    const wrappers = lines.indexOf('export PATH="/usr/lib/ccache:$PATH"');
    const npmCi = lines.findIndex((line) => /^(\w+=\S+ )*npm ci\b/.test(line));
    expect(install).toBeGreaterThan(-1);
    expect(wrappers).toBeGreaterThan(install);
    expect(npmCi).toBeGreaterThan(wrappers);
    // ccache hits only for the same compiler flags: the majors' must be npm ci's.
    const ciFlags = Object.fromEntries(
      [...lines[npmCi]!.matchAll(/\b(C|CXX)FLAGS=(\S+)/g)].map((m) => [`${m[1]}FLAGS`, m[2]]),
    );
    const env = environmentFor(22, '/opt/node-22/bin', { PATH: '/usr/lib/ccache:/usr/bin' });
    expect(env.PATH).toBe(`/opt/node-22/bin${path.delimiter}/usr/lib/ccache:/usr/bin`);
    expect({ CFLAGS: env.CFLAGS, CXXFLAGS: env.CXXFLAGS }).toEqual(ciFlags);
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

  it("follows the generated project's Dockerfile on one of its majors: the one the image's FROM lines name [claim:cg-node-versions-skips]", () => {
    const dockerfile = readFileSync(
      path.join(root, 'packages/create-weft/templates/base/Dockerfile'),
      'utf8',
    );
    expect(EXTRA_TESTED_NODE_MAJORS).toContain(imageNodeMajor(dockerfile));
    expect(() => imageNodeMajor('FROM node:22-slim AS build\nFROM node:24-slim\n')).toThrow(
      /one node:<major>/,
    );
  });

  it("skips three tests on the other majors: the two that type-check a consumer of @weft/core, and the Dockerfile's but on its image's major [claim:cg-node-versions-skips]", () => {
    /** The titles of the tests a file skips when the condition names the major under test. */
    const skippedOnMajors = (file: string): { title: string; condition: string }[] => {
      const source = readFileSync(path.join(root, file), 'utf8');
      const call = /\bit\.skipIf\(((?:[^()]|\([^()]*\))*)\)\(\s*(['"`])((?:\\.|(?!\2)[^\\])*)\2/g;
      return [...source.matchAll(call)]
        .map((match) => ({ condition: match[1]!, title: match[3]! }))
        .filter(({ condition }) => /EXPECTED_NODE_MAJOR_ENV|expectedMajor/.test(condition));
    };
    // Every file the majors run: tests/pack/ less the two left out, and the generated project's.
    const packages = MAJOR_SUITES[0]!.args;
    const packFiles = readdirSync(path.join(root, 'tests/pack'))
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => `tests/pack/${file}`)
      .filter((file) => !packages.includes(file));
    const skipped = [...packFiles, 'tests/scaffold/clone.test.ts'].flatMap((file) =>
      skippedOnMajors(file).map((entry) => ({ file, ...entry })),
    );
    expect(skipped.map(({ file }) => file)).toEqual([
      'tests/pack/pack.test.ts',
      'tests/pack/pack.test.ts',
      'tests/scaffold/clone.test.ts',
    ]);
    expect(skipped[0]!.title).toMatch(/^type-checks a TypeScript consumer/);
    expect(skipped[1]!.title).toMatch(/type-checks a consumer/);
    // On every major but the image's, which the test above holds to a tested one.
    expect(skipped[2]!.title).toMatch(/Dockerfile/);
    expect(skipped[2]!.condition).toMatch(/Number\(expectedMajor\) !== IMAGE_NODE_MAJOR/);
  });

  it('runs as many majors at a time as the machine has cores [claim:cg-test-node-versions]', () => {
    expect(laneCount(3, 2)).toBe(2);
    expect(laneCount(3, 8)).toBe(3);
    expect(laneCount(1, 2)).toBe(1);
  });

  describe("each major's output", () => {
    afterEach(() => vi.restoreAllMocks());

    /** What the suite printed, with the number of writes it took. */
    async function printedBy(
      script: string,
      timeoutMs?: number,
    ): Promise<{ passed: boolean; writes: string[] }> {
      const writes: string[] = [];
      vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
        writes.push(String(chunk));
        return true;
      });
      const passed = await runHeldBack(
        'Node.js test: a suite',
        process.execPath,
        ['-e', script],
        process.env,
        timeoutMs,
      );
      return { passed, writes };
    }

    it('is printed whole, in one piece, when the suite ends [claim:cg-test-node-versions]', async () => {
      const { passed, writes } = await printedBy(
        "console.log('first'); setTimeout(() => { console.error('second'); process.exit(3); }, 200);",
      );
      expect(passed).toBe(false);
      expect(writes).toEqual(['\n=== Node.js test: a suite\nfirst\nsecond\n']);
    }, 30_000);

    it('ends a suite that passes its deadline, saying so', async () => {
      const started = Date.now();
      // The deadline leaves the child seconds to start and print its line on a loaded machine:
      // at 500 ms this test failed once beside other test files.
      const { passed, writes } = await printedBy(
        "console.log('waiting'); setTimeout(() => undefined, 60_000);",
        5_000,
      );
      expect(passed).toBe(false);
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(writes.join('')).toMatch(/waiting\n\nno result within [\d.]+ min\n$/);
    }, 30_000);
  });
});
