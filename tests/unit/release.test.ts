/**
 * Versions and releases: one version for every first-party package, raised together by
 * changesets, and releases published from CI on every push to main, with npm provenance.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import semver from 'semver';
import { parse } from 'yaml';

const root = path.resolve(__dirname, '../..');
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');
const packages = readdirSync(path.join(root, 'packages'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => path.join('packages', entry.name, 'package.json'))
  .filter((file) => {
    try {
      read(file);
      return true;
    } catch {
      return false;
    }
  })
  .map((file) => JSON.parse(read(file)) as { name: string; version: string; private?: boolean });

describe('package versions', () => {
  it('gives every first-party package the same version, which changesets raises together [claim:install-one-version-provenance] [claim:stability-version] [claim:stability-one-version] [claim:stability-changelog]', () => {
    expect(packages.length).toBeGreaterThan(3);
    const published = packages.filter((entry) => entry.private !== true);
    expect(new Set(published.map((entry) => entry.version)).size).toBe(1);
    // The stability policy names that version.
    const stated = /every package is at version (\d+\.\d+\.\d+)/.exec(
      read('docs/reference/stability.md'),
    )?.[1];
    expect(stated).toBe(published[0]?.version);
    const config = JSON.parse(read('.changeset/config.json')) as { fixed: string[][] };
    // One fixed group whose patterns match every published package.
    expect(config.fixed).toHaveLength(1);
    const patterns = (config.fixed[0] ?? []).map(
      (pattern) =>
        new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`),
    );
    for (const entry of published) {
      expect(
        patterns.some((pattern) => pattern.test(entry.name)),
        entry.name,
      ).toBe(true);
    }
  });
});

describe('the range a generated project depends on', () => {
  it('reads ^version, which create-weft writes, as the same releases as ~version while the major version is 0 [claim:stability-generated-caret]', () => {
    const version = packages.find((entry) => entry.name === 'create-weft')?.version ?? '';
    expect(semver.major(version)).toBe(0);
    expect(semver.subset(`^${version}`, `~${version}`)).toBe(true);
    expect(semver.subset(`~${version}`, `^${version}`)).toBe(true);
    // The page's example is that version's range.
    expect(read('docs/reference/stability.md')).toContain(
      `create-weft writes projects that depend on \`^${version}\``,
    );
  });
});

describe('dependencies between the packages', () => {
  it('pins every Weft package a package depends on to exactly the shared version [claim:stability-exact-dependencies]', () => {
    const manifests = packages as {
      name: string;
      version: string;
      private?: boolean;
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    }[];
    const published = manifests.filter((entry) => entry.private !== true);
    const names = new Set(published.map((entry) => entry.name));
    // Dependencies, never peers: npm gives a package whose pin differs from the app's a copy of its own.
    for (const entry of published) {
      const peers = Object.keys(entry.peerDependencies ?? {}).filter((name) => names.has(name));
      expect(peers, `${entry.name} peer dependencies`).toEqual([]);
    }
    const pins = published.flatMap((entry) =>
      Object.entries(entry.dependencies ?? {})
        .filter(([name]) => names.has(name))
        .map(([name, range]) => ({ from: entry.name, name, range, version: entry.version })),
    );
    // The core is among them: every package but the core and the creator depends on it.
    expect(pins.filter((pin) => pin.name === '@weft/core').length).toBe(published.length - 2);
    for (const pin of pins) expect(pin.range, `${pin.from} → ${pin.name}`).toBe(pin.version);
  });
});

describe('the release workflow', () => {
  it('publishes releases from GitHub Actions with npm provenance [claim:contributing-release-on-main] [claim:install-one-version-provenance]', () => {
    const release = read('.github/workflows/release.yml');
    expect(release).toMatch(/id-token: write/);
    expect(release).toMatch(/NPM_CONFIG_PROVENANCE: ['"]?true|--provenance/);
  });

  it('asks for no more than it uses: the repository read, an id token to sign, and no credentials kept by the checkout', () => {
    const workflow = parse(read('.github/workflows/release.yml')) as {
      permissions: Record<string, string>;
      jobs: Record<
        string,
        { permissions?: unknown; steps: { uses?: string; with?: Record<string, unknown> }[] }
      >;
    };
    expect(workflow.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
    for (const job of Object.values(workflow.jobs)) {
      expect(job.permissions).toBeUndefined();
      const checkouts = job.steps.filter((step) => step.uses?.startsWith('actions/checkout@'));
      for (const checkout of checkouts) expect(checkout.with?.['persist-credentials']).toBe(false);
    }
  });

  it("publishes on every push to main, after the packages' tests, every version not yet published [claim:contributing-release-on-main]", () => {
    const workflow = parse(read('.github/workflows/release.yml')) as {
      on: { push?: { branches?: string[] }; pull_request?: unknown };
      jobs: Record<string, { steps: { run?: string; uses?: string }[] }>;
    };
    expect(workflow.on.push?.branches).toEqual(['main']);
    expect(workflow.on.pull_request).toBeUndefined();
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
    const runs = steps.map((step) => step.run ?? '');
    const tested = runs.indexOf('npm run test:packages');
    const released = runs.indexOf('npm run release');
    expect(tested).toBeGreaterThanOrEqual(0);
    expect(released).toBeGreaterThan(tested);
    // No action opens a "Version packages" pull request: versions are raised by hand.
    expect(steps.filter((step) => step.uses?.startsWith('changesets/action'))).toEqual([]);
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> })
      .scripts;
    expect(scripts.release).toBe('npm run build --workspace packages && changeset publish');
  });

  it("builds the site before the packages are packed or built: @weft/mcp-docs's data is made from it [claim:contributing-release-on-main]", () => {
    const workflow = parse(read('.github/workflows/release.yml')) as {
      jobs: Record<string, { steps: { run?: string }[] }>;
    };
    const runs = Object.values(workflow.jobs).flatMap((job) => job.steps.map((s) => s.run ?? ''));
    const siteBuilt = runs.indexOf('npm run build');
    expect(siteBuilt).toBeGreaterThanOrEqual(0);
    expect(runs.indexOf('npm run test:packages')).toBeGreaterThan(siteBuilt);
    expect(runs.indexOf('npm run release')).toBeGreaterThan(siteBuilt);
  });
});

describe('deprecations in the packages', () => {
  /** Every `@deprecated` tag in a package's sources, with the file it is in. */
  const deprecations = readdirSync(path.join(root, 'packages'), {
    recursive: true,
    encoding: 'utf8',
  })
    .filter((file) => /^[^/]+\/src\/.+\.tsx?$/.test(file))
    .flatMap((file) =>
      read(path.join('packages', file))
        .split('\n')
        .filter((line) => line.includes('@deprecated'))
        .map((line) => ({ file, tag: line.replace(/^\s*\*\s*/, '') })),
    );

  it('name what to use instead, and keep the old form for at least one minor release after the one that deprecates it [claim:stability-deprecated-mark] [claim:stability-deprecation]', () => {
    // Three error-code aliases are deprecated today; a removal would change this count.
    expect(deprecations.length).toBeGreaterThanOrEqual(3);
    for (const { file, tag } of deprecations) {
      expect(tag, file).toMatch(/^@deprecated Use \{@link \w+\}/);
      expect(tag, file).toContain('for at least one minor release after');
      expect(tag, file).not.toMatch(/next minor|removed in 0\.\d/);
    }
  });
});
