/**
 * Tries a Docusaurus upgrade without touching this checkout: copies the committed site (a
 * detached git worktree of HEAD) into a temporary folder, installs the given version of every
 * `@docusaurus/*` package the site declares there, builds it, and runs the tests that depend on
 * Docusaurus internals (the lean client's unit tests, the byte budgets, and the browser tests of
 * hydration and first taps). Prints each step's outcome and the tail of what failed.
 *
 * Run: npm run check:docusaurus-upgrade [version]. Without a version, the newest 3.x release
 * (`npm view @docusaurus/core versions`); "next" means the newest pre-release of the next major.
 * When the version's `engines.node` asks for a newer Node.js than the one running (the 4.0
 * canaries need 24.14), that is reported as a finding and the steps after the install run on
 * that major, installed into .cache/node-versions as test:node-versions does.
 * Needs the npm registry. BENCH_KEEP=true keeps the temporary folder. Exits 1 if a step failed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { installNode } from '../tooling/node-versions';
import { runWhenMain } from '../tooling/run-when-main';

const siteDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const SCRIPT = 'check:docusaurus-upgrade';
/** Each step's deadline; a hung install or build fails the step instead of the whole run. */
const STEP_DEADLINE_MS = 30 * 60_000;
const FAILURE_TAIL_LINES = 40;

function publishedVersions(name: string): string[] {
  const json = execFileSync('npm', ['view', name, 'versions', '--json'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return JSON.parse(json) as string[];
}

/**
 * The versions every one of the packages has, in @docusaurus/core's publication order. Canary
 * releases are not published for every package (4.0.0-canary-6822 exists for core only), and
 * installing a version one package lacks fails with ETARGET before anything is tried.
 */
export function versionsOfAll(versionsByPackage: string[][]): string[] {
  const [first = [], ...rest] = versionsByPackage;
  return first.filter((version) => rest.every((versions) => versions.includes(version)));
}

/** "3.10.2" → [3, 10, 2]; pre-release tags are compared by publication order instead. */
const releaseParts = (version: string): number[] => version.split(/[.-]/).slice(0, 3).map(Number);

export function chooseVersion(requested: string | undefined, versions: string[]): string {
  if (requested && requested !== 'next') {
    if (!versions.includes(requested)) {
      throw new Error(
        `${SCRIPT}: "${requested}" is not published for every @docusaurus/* package the site declares`,
      );
    }
    return requested;
  }
  const stable3 = versions.filter((version) => /^3\.\d+\.\d+$/.test(version));
  if (requested === 'next') {
    // npm lists versions in publication order: the last pre-release of the next major.
    const next = versions.filter((version) => version.startsWith('4.') && version.includes('-'));
    const newest = next.at(-1);
    if (!newest) {
      throw new Error(`${SCRIPT}: no 4.x pre-release of @docusaurus/core is published`);
    }
    return newest;
  }
  const newest = [...stable3].sort((a, b) => {
    const [x, y] = [releaseParts(a), releaseParts(b)];
    return (x[0]! - y[0]!) * 1e6 + (x[1]! - y[1]!) * 1e3 + (x[2]! - y[2]!);
  });
  const chosen = newest.at(-1);
  if (!chosen) {
    throw new Error(`${SCRIPT}: no 3.x release of @docusaurus/core is published`);
  }
  return chosen;
}

interface StepResult {
  step: string;
  ok: boolean;
  seconds: number;
  tail: string;
}

/**
 * The Node.js major to run a version on, given its `engines.node`: undefined when `current`
 * meets it, else the lowest major that does. Docusaurus writes its range as `>=major.minor`
 * (3.x: ">=20.0", the 4.0 canaries: ">=24.14"); another form is refused by name rather than
 * guessed at.
 */
export function nodeMajorFor(engines: string, current: string): number | undefined {
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(engines.trim());
  if (!match) {
    throw new Error(`${SCRIPT}: engines.node "${engines}" is not a ">=major.minor" range`);
  }
  const wanted = [match[1], match[2], match[3]].map((part) => Number(part ?? 0));
  const have = current.replace(/^v/, '').split('.').map(Number);
  const difference = wanted.map((part, index) => (have[index] ?? 0) - part).find((d) => d !== 0);
  return difference === undefined || difference > 0 ? undefined : wanted[0];
}

/**
 * The packages of a lockfile that ask for a `@docusaurus/*` package in a range the tried version
 * is outside of (a third-party plugin that still says `^2 || ^3`), with those ranges. npm then
 * installs an older copy for them beside the new one, and two copies of Docusaurus's validation
 * utilities cannot share their schemas, so such a plugin stops the build.
 */
export function docusaurusRangesMissing(
  lockfile: { packages?: Record<string, { dependencies?: Record<string, string> }> },
  version: string,
): Map<string, Record<string, string>> {
  const missing = new Map<string, Record<string, string>>();
  for (const [location, entry] of Object.entries(lockfile.packages ?? {})) {
    const name = location.split('node_modules/').at(-1) ?? '';
    if (!name || name.startsWith('@docusaurus/')) continue;
    for (const [dependency, range] of Object.entries(entry.dependencies ?? {})) {
      if (
        dependency.startsWith('@docusaurus/') &&
        !semver.satisfies(version, range, { includePrerelease: true })
      ) {
        missing.set(name, { ...missing.get(name), [dependency]: range });
      }
    }
  }
  return missing;
}

/** A package.json, as far as the check reads and writes it. */
export type PackageManifest = Record<string, unknown> & { overrides?: Record<string, unknown> };

/**
 * The site's package.json with npm `overrides` that force the tried version on each package of
 * `missing` (from {@link docusaurusRangesMissing}), for each `@docusaurus/*` dependency it pins
 * to an older range. The site's own overrides stay: without them the install asks the registry
 * for versions it does not serve.
 */
export function withVersionForced(
  manifest: PackageManifest,
  missing: ReadonlyMap<string, Record<string, string>>,
  version: string,
): PackageManifest {
  const forced = Object.fromEntries(
    [...missing].map(([name, ranges]) => [
      name,
      Object.fromEntries(Object.keys(ranges).map((dependency) => [dependency, version])),
    ]),
  );
  return { ...manifest, overrides: { ...manifest.overrides, ...forced } };
}

/**
 * The configuration fields a Docusaurus build refused as "not recognized", from its output
 * (`These field(s) ("future.v4.removeLegacyPostBuildHeadAttribute",) are not recognized`).
 * Docusaurus 4 refuses the `future.v4` opt-ins that became its defaults.
 */
export function unrecognizedFields(buildOutput: string): string[] {
  const listed = /These field\(s\) \(([^)]*)\) are not recognized/.exec(buildOutput)?.[1] ?? '';
  return [...listed.matchAll(/"([^"]+)"/g)].map((match) => match[1] ?? '').filter(Boolean);
}

/**
 * The site's configuration without the given fields, each written on a line of its own
 * (`removeLegacyPostBuildHeadAttribute: true,`), so the build can go on and the tests can say
 * what else breaks. The other `future.v4` flags stay: the site turns two new defaults off (CSS
 * cascade layers, storage namespacing), and the tests should see whether 4.0 still lets it.
 * Throws, naming the field, when a field is not on exactly one line.
 */
export function withoutFields(config: string, fields: readonly string[]): string {
  return fields.reduce((text, field) => {
    const key = field.split('.').at(-1) ?? field;
    const line = new RegExp(`^[ \\t]*${key}: [^\\n]*,\\n`, 'gm');
    const found = text.match(line) ?? [];
    if (found.length !== 1) {
      throw new Error(
        `${SCRIPT}: "${field}" is on ${found.length} lines of docusaurus.config.ts, not on one`,
      );
    }
    return text.replace(line, '');
  }, config);
}

function step(
  name: string,
  command: string,
  args: string[],
  cwd: string,
  nodeBin?: string,
): StepResult {
  const started = Date.now();
  process.stdout.write(`${SCRIPT}: ${name}…\n`);
  const searchPath = nodeBin
    ? `${nodeBin}${path.delimiter}${process.env.PATH ?? ''}`
    : process.env.PATH;
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    timeout: STEP_DEADLINE_MS,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, CI: '', PATH: searchPath },
  });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  const timedOut = result.error !== undefined;
  return {
    step: name,
    ok: !timedOut && result.status === 0,
    seconds: Math.round((Date.now() - started) / 1000),
    tail: timedOut
      ? `did not finish within ${STEP_DEADLINE_MS / 60_000} minutes (${result.error?.message ?? ''})`
      : output.split('\n').slice(-FAILURE_TAIL_LINES).join('\n'),
  };
}

/**
 * Playwright reuses a server already listening on E2E_PORT (outside CI), so the browser tests
 * would test whatever site that is (this checkout's dev server, another clone's build) instead
 * of the upgraded copy. Resolves to an error message when the port is taken.
 */
function portTaken(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error) =>
      resolve(`port ${port} (E2E_PORT) is in use (${error.message}); free it or set E2E_PORT`),
    );
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(undefined)));
  });
}

const e2ePort = Number(process.env.E2E_PORT || 4173);

async function main(): Promise<void> {
  const manifest = JSON.parse(readFileSync(path.join(siteDir, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const docusaurusPackages = Object.keys({
    ...manifest.dependencies,
    ...manifest.devDependencies,
  }).filter((name) => name.startsWith('@docusaurus/'));
  // core first: its list gives the publication order.
  const ordered = [
    '@docusaurus/core',
    ...docusaurusPackages.filter((name) => name !== '@docusaurus/core'),
  ];
  const version = chooseVersion(process.argv[2], versionsOfAll(ordered.map(publishedVersions)));
  const workDir = mkdtempSync(path.join(tmpdir(), 'weft-docusaurus-upgrade-'));
  const copy = path.join(workDir, 'site');
  console.log(`${SCRIPT}: trying @docusaurus/* ${version} in ${copy}`);
  execFileSync('git', ['worktree', 'add', '--detach', copy, 'HEAD'], {
    cwd: siteDir,
    stdio: 'ignore',
  });
  const results: StepResult[] = [];
  try {
    // A plugin whose range stops before the tried version gets an older copy of Docusaurus's
    // packages beside the new ones: a finding, read from the lockfile before the install.
    const lockfile = JSON.parse(readFileSync(path.join(copy, 'package-lock.json'), 'utf8')) as {
      packages?: Record<string, { dependencies?: Record<string, string> }>;
    };
    const missing = docusaurusRangesMissing(lockfile, version);
    if (missing.size > 0) {
      results.push({
        step: `plugins whose @docusaurus/* ranges exclude ${version}: ${[...missing.keys()].join(', ')}`,
        ok: false,
        seconds: 0,
        tail: [...missing]
          .map(
            ([name, ranges]) =>
              `${name}: ${Object.entries(ranges)
                .map(([dependency, range]) => `${dependency} "${range}"`)
                .join(', ')}`,
          )
          .join('\n'),
      });
    }
    const installArgs = [
      'install',
      '--no-audit',
      '--no-fund',
      ...docusaurusPackages.map((name) => `${name}@${version}`),
    ];
    const installName = `install ${docusaurusPackages.map((name) => `${name}@${version}`).join(' ')}`;
    let install = step(installName, 'npm', installArgs, copy);
    results.push(install);
    // A peer range the new version does not meet (TypeScript, React) is a finding, not the end:
    // install past it to see what else breaks.
    if (!install.ok && install.tail.includes('ERESOLVE')) {
      install = step(
        `${installName} --legacy-peer-deps`,
        'npm',
        [...installArgs, '--legacy-peer-deps'],
        copy,
      );
      results.push(install);
    }
    // A version that needs a newer Node.js than this one runs its steps on that major, from the
    // same cache test:node-versions uses; the need is reported as a finding of its own.
    let nodeBin: string | undefined;
    if (install.ok) {
      const engines = (
        JSON.parse(
          readFileSync(path.join(copy, 'node_modules/@docusaurus/core/package.json'), 'utf8'),
        ) as { engines?: { node?: string } }
      ).engines?.node;
      const major = engines ? nodeMajorFor(engines, process.version) : undefined;
      if (major !== undefined) {
        nodeBin = installNode(major);
        results.push({
          step: `Node.js: @docusaurus/core ${version} needs ${engines}; the steps below run on Node.js ${major}`,
          ok: false,
          seconds: 0,
          tail: `This machine runs ${process.version}; engines.node of @docusaurus/core ${version} is "${engines}".`,
        });
      }
    }
    if (install.ok) {
      let build = step('build', 'npm', ['run', 'build'], copy, nodeBin);
      results.push(build);
      // A major that refuses configuration fields (4.0 refuses the future.v4 opt-ins that became
      // its defaults): build again without them to see what else breaks.
      const refused = build.ok ? [] : unrecognizedFields(build.tail);
      if (refused.length > 0) {
        const configPath = path.join(copy, 'docusaurus.config.ts');
        writeFileSync(configPath, withoutFields(readFileSync(configPath, 'utf8'), refused));
        build = step(
          `build without the refused field(s) ${refused.join(', ')}`,
          'npm',
          ['run', 'build'],
          copy,
          nodeBin,
        );
        results.push(build);
      }
      // Then force the tried version on the plugins pinned to an older one (npm overrides), and
      // build again. Not done in the first install: overrides make npm resolve the whole tree
      // again, which a registry without every dist-tag can refuse (this machine's lacks
      // node-fetch@cjs, asked for by verdaccio-audit).
      if (!build.ok && missing.size > 0) {
        const manifestPath = path.join(copy, 'package.json');
        const copied = JSON.parse(readFileSync(manifestPath, 'utf8')) as PackageManifest;
        writeFileSync(
          manifestPath,
          `${JSON.stringify(withVersionForced(copied, missing, version), null, 2)}\n`,
        );
        const overridden = step(
          `install with ${version} forced on ${[...missing.keys()].join(', ')} (npm overrides)`,
          'npm',
          ['install', '--no-audit', '--no-fund', '--legacy-peer-deps'],
          copy,
        );
        results.push(overridden);
        if (overridden.ok) {
          build = step('build with the overrides', 'npm', ['run', 'build'], copy, nodeBin);
          results.push(build);
        }
      }
      results.push(
        step(
          'unit tests of the lean client',
          'npx',
          [
            'vitest',
            'run',
            'tests/unit/lean-client-internals.test.ts',
            'tests/unit/lean-client-replacements.test.ts',
            'tests/unit/lean-client-loaders.test.ts',
            'tests/unit/lean-client-table.test.ts',
          ],
          copy,
          nodeBin,
        ),
      );
      if (build.ok) {
        results.push(
          step(
            'byte budgets',
            'npx',
            [
              'vitest',
              'run',
              '--config',
              'vitest.build.config.ts',
              'tests/build/javascript-budget.test.ts',
            ],
            copy,
            nodeBin,
          ),
        );
        const taken = await portTaken(e2ePort);
        results.push(
          taken !== undefined
            ? {
                step: 'browser tests of hydration and first taps',
                ok: false,
                seconds: 0,
                tail: taken,
              }
            : step(
                'browser tests of hydration and first taps',
                'npx',
                [
                  'playwright',
                  'test',
                  'tests/e2e/first-tap.spec.ts',
                  'tests/e2e/head.spec.ts',
                  'tests/e2e/code-blocks.spec.ts',
                  'tests/e2e/mobile.spec.ts',
                  'tests/e2e/search.spec.ts',
                ],
                copy,
                nodeBin,
              ),
        );
      }
    }
  } finally {
    if (process.env.BENCH_KEEP !== 'true') {
      execFileSync('git', ['worktree', 'remove', '--force', copy], {
        cwd: siteDir,
        stdio: 'ignore',
      });
      rmSync(workDir, { recursive: true, force: true });
    }
  }
  console.log(`\n@docusaurus/* ${version}:`);
  console.table(
    results.map((result) => ({
      step: result.step,
      outcome: result.ok ? 'passed' : 'FAILED',
      seconds: result.seconds,
    })),
  );
  for (const failed of results.filter((result) => !result.ok)) {
    console.log(`\n--- ${failed.step}: last ${FAILURE_TAIL_LINES} lines ---\n${failed.tail}`);
  }
  if (results.some((result) => !result.ok)) {
    process.exit(1);
  }
}

runWhenMain(import.meta.url, 'check the Docusaurus upgrade', main);
