/**
 * The repository's folders are layers, and each file imports only from its own layer or a lower
 * one, so a change low in the house never has to look upward to see what it breaks. Lowest first:
 * the published packages (each package's src/); the samples (examples/) and the private libraries
 * several layers share (libs/); the packages' own tests and build scripts; the site (src/, docs/,
 * static/, its config at the root); the libraries the commands share (tooling/); the commands
 * (scripts/); the tests (tests/, and the samples' tests); the benches and probes (bench/). The
 * guard resolves relative imports, `@site/` imports and workspace package names to files (a
 * private library's subpath, `@weft-internal/docs-model/site`, through its exports map), and
 * reads the package scripts too: the root's scripts run commands from scripts/ or bench/, a
 * package's scripts run files of its own folder.
 * (Which workspace package may import which is package-layers.test.ts's job.)
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { workingTreeFiles } from '../support/working-tree';

const root = path.resolve(__dirname, '../..');

interface Layer {
  name: string;
  /** Which files belong to the layer, by their path from the root (POSIX separators). */
  holds: (file: string) => boolean;
}

/** Lowest first; a file's layer is the first that holds it. */
const layers: Layer[] = [
  {
    name: 'published packages',
    holds: (file) =>
      /^packages\/[^/]+\/src\//.test(file) ||
      /^(packages\/[^/]+\/)?package\.json$/.test(file) ||
      /^packages\/[^/]+\.ts$/.test(file) ||
      /^packages\/[^/]+\/tsup\.config\.ts$/.test(file),
  },
  {
    name: 'shared libraries and samples',
    // An example's test is a test: it may use the test support a sample never imports.
    holds: (file) => /^(libs|examples)\//.test(file) && !/\.test\.tsx?$/.test(file),
  },
  { name: "packages' tests and build scripts", holds: (file) => file.startsWith('packages/') },
  {
    name: 'site',
    holds: (file) =>
      /^(src|docs|static)\//.test(file) ||
      /^(docusaurus\.config|sidebars|sidebars\.api)\.ts$/.test(file),
  },
  { name: 'command libraries', holds: (file) => file.startsWith('tooling/') },
  { name: 'commands', holds: (file) => file.startsWith('scripts/') },
  {
    name: 'tests',
    holds: (file) =>
      file.startsWith('tests/') ||
      /^examples\/.*\.test\.tsx?$/.test(file) ||
      /^(vitest|playwright)(\.[a-z]+)?\.config\.ts$/.test(file),
  },
  { name: 'benches and probes', holds: (file) => file.startsWith('bench/') },
];

function layerOf(file: string): number {
  const index = layers.findIndex((layer) => layer.holds(file));
  return index === -1 ? layers.length : index;
}

const describeLayer = (index: number): string => layers[index]?.name ?? 'no layer';

interface Manifest {
  name: string;
  scripts?: Record<string, string>;
  exports?: Record<string, unknown>;
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
const rootManifest = readJson<Manifest & { workspaces: string[] }>(path.join(root, 'package.json'));
const workspaceManifests = new Map(
  rootManifest.workspaces.map((dir) => {
    const manifest = readJson<Manifest>(path.join(root, dir, 'package.json'));
    return [manifest.name, { dir, manifest }] as const;
  }),
);
const workspaces = new Map([...workspaceManifests].map(([name, { dir }]) => [name, dir]));

const tracked = workingTreeFiles(root);
const sources = tracked.filter((file) => /\.(ts|tsx|mts|cts|mjs|js|cjs)$/.test(file));

const isFile = (file: string): boolean =>
  existsSync(path.join(root, file)) && statSync(path.join(root, file)).isFile();

/** The repository file a specifier names from `from`, or undefined for an outside module. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  let base: string | undefined;
  if (specifier.startsWith('.')) base = path.posix.join(path.posix.dirname(from), specifier);
  else if (specifier.startsWith('@site/')) base = specifier.slice('@site/'.length);
  else {
    const parts = specifier.split('/');
    const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
    const dir = workspaces.get(name);
    if (dir === undefined) return undefined;
    // A private library (libs/) is its TypeScript sources, named by its exports map; a published
    // package by name is its published entry, whatever the subpath.
    if (!dir.startsWith('libs/')) return `${dir}/src/index.ts`;
    const subpath = `.${specifier.slice(name.length)}`;
    const target = workspaceManifests.get(name)?.manifest.exports?.[subpath];
    if (typeof target !== 'string') return `${dir}/${subpath.slice(2)}`;
    return path.posix.join(dir, target);
  }
  const stripped = base.replace(/\.(js|mjs|cjs)$/, '');
  const candidates = [
    base,
    ...['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.json'].map((ext) => stripped + ext),
    ...['/index.ts', '/index.tsx', '/index.js'].map((index) => base + index),
  ];
  return candidates.find(isFile) ?? base;
}

interface Crossing {
  from: string;
  to: string;
  via: string;
}

function importCrossings(): Crossing[] {
  const crossings: Crossing[] = [];
  for (const file of sources) {
    const text = readFileSync(path.join(root, file), 'utf8');
    const own = layerOf(file);
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      const target = resolveSpecifier(file, fileName);
      if (target === undefined) continue;
      if (layerOf(target) > own) crossings.push({ from: file, to: target, via: fileName });
    }
  }
  return crossings;
}

const describeCrossing = ({ from, to, via }: Crossing): string =>
  `${from} (${describeLayer(layerOf(from))}) imports '${via}' → ${to} (${describeLayer(layerOf(to))}): ` +
  'a file imports only from its own layer or a lower one; move what both need down into libs/';

/**
 * What a root script may run besides a command of scripts/ or a bench of bench/: a tool's own
 * configuration file (vitest, playwright), which the tool reads; a package's command-line entry
 * (`create-agent` runs create-weft from the clone, as a reader does); an example's entry, which
 * its guide tells the reader to start with npm.
 */
const rootMayRun = (file: string): boolean =>
  /^(scripts|bench)\//.test(file) ||
  /^[^/]+\.config\.ts$/.test(file) ||
  /^packages\/[^/]+\/src\/cli\.ts$/.test(file) ||
  /^examples\/[^/]+\/main\.ts$/.test(file);

/**
 * The build files every package shares, beside the package folders (`packages/tsup.base.ts`,
 * which each tsup.config.ts imports, and the steps run after tsup): the packages' own layer.
 */
const packagesBuildFile = (file: string): boolean => /^packages\/[^/]+\.(ts|mjs)$/.test(file);

/** The repository files a package script runs: every argument that names an existing file. */
function filesRunBy(command: string, cwd: string): string[] {
  return command
    .split(/\s+|&&|\|\|/)
    .filter((word) => /\.(ts|tsx|mts|mjs|js|cjs)$/.test(word))
    .map((word) => path.posix.normalize(path.posix.join(cwd, word)))
    .filter(isFile);
}

function scriptViolations(): string[] {
  const found: string[] = [];
  for (const [script, command] of Object.entries(rootManifest.scripts ?? {})) {
    for (const file of filesRunBy(command, '.')) {
      if (!rootMayRun(file)) {
        found.push(
          `package.json script '${script}' runs ${file}: the root's scripts run a command from ` +
            'scripts/ or a bench from bench/, so every command has one home',
        );
      }
    }
  }
  for (const [name, dir] of workspaces) {
    const manifest = readJson<Manifest>(path.join(root, dir, 'package.json'));
    for (const [script, command] of Object.entries(manifest.scripts ?? {})) {
      for (const file of filesRunBy(command, dir)) {
        if (!file.startsWith(`${dir}/`) && !packagesBuildFile(file)) {
          found.push(
            `${dir}/package.json script '${script}' (${name}) runs ${file}: a package builds ` +
              'from its own folder and the build files every package shares in packages/, ' +
              'so it builds the same when packed or cloned with them',
          );
        }
      }
    }
  }
  return found;
}

describe('the folders are layers', () => {
  it('places the files it knows in the layers it expects', () => {
    expect(describeLayer(layerOf('packages/core/src/index.ts'))).toBe('published packages');
    expect(describeLayer(layerOf('packages/mcp-docs/scripts/generate-data.ts'))).toBe(
      "packages' tests and build scripts",
    );
    expect(describeLayer(layerOf('docusaurus.config.ts'))).toBe('site');
    expect(describeLayer(layerOf('tests/unit/folder-layers.test.ts'))).toBe('tests');
    expect(sources.length).toBeGreaterThan(200);
    expect(sources.filter((file) => layerOf(file) === layers.length)).toEqual([
      'eslint.config.mjs',
    ]);
  });

  it("orders the layers as the contributing guide's tree lists the folders, with the exceptions it names [claim:cg-folder-layers]", () => {
    const guide = readFileSync(path.join(root, 'docs/contributing-guide.md'), 'utf8');
    const start = guide.indexOf('\n## Repository layout\n');
    const tree = /```text\n([\s\S]*?)```/.exec(guide.slice(start))?.[1] ?? '';
    // Each top-level entry of the tree, as a file of it: `tests/` → tests/x.ts.
    const entries = [...tree.matchAll(/^(\S+)\s/gm)].map(([, entry]) => entry!);
    const files = entries.map((entry) => (entry.endsWith('/') ? `${entry}x.ts` : entry));
    const layered = files.filter((file) => layerOf(file) < layers.length);
    expect(layered.length).toBeGreaterThan(8);
    // Lowest first: no listed folder sits below one listed before it.
    const descents = layered.flatMap((file, index) =>
      index > 0 && layerOf(file) < layerOf(layered[index - 1]!)
        ? [`${file} (${describeLayer(layerOf(file))}) is listed after ${layered[index - 1]}`]
        : [],
    );
    expect(descents).toEqual([]);
    // The exceptions: one layer for the samples and the libraries, a package's tests and build
    // scripts above it, a sample's test with the tests.
    const samples = layerOf('examples/getting-started/main.ts');
    expect(layerOf('libs/docs-model/site.ts')).toBe(samples);
    expect(layerOf('packages/core/src/index.ts')).toBeLessThan(samples);
    expect(layerOf('packages/core/test/runtime.test.ts')).toBeGreaterThan(samples);
    expect(layerOf('packages/mcp-docs/scripts/generate-data.ts')).toBeGreaterThan(samples);
    expect(layerOf('packages/mcp-docs/scripts/generate-data.ts')).toBeLessThan(layerOf('docs/x'));
    expect(describeLayer(layerOf('examples/scaling-out/scaling-out.test.ts'))).toBe('tests');
  });

  it('resolves relative, @site/ and workspace imports to files, and sees an upward one', () => {
    expect(resolveSpecifier('src/pages/index.tsx', '@site/libs/docs-model/site')).toBe(
      'libs/docs-model/site.ts',
    );
    expect(resolveSpecifier('tests/unit/x.test.ts', '../../libs/docs-model/site')).toBe(
      'libs/docs-model/site.ts',
    );
    expect(resolveSpecifier('src/pages/index.tsx', '@weft-internal/docs-model/site')).toBe(
      'libs/docs-model/site.ts',
    );
    expect(
      resolveSpecifier('tests/unit/x.test.ts', '@weft-internal/docs-model/catalogue/model'),
    ).toBe('libs/docs-model/catalogue/model.ts');
    // A library that imported a site file would reach up; the guard must see it.
    expect(layerOf('libs/docs-model/site.ts')).toBeLessThan(layerOf('src/pages/index.tsx'));
    expect(resolveSpecifier('tests/unit/x.test.ts', '@weft/core')).toBe(
      'packages/core/src/index.ts',
    );
    expect(resolveSpecifier('tests/unit/x.test.ts', 'vitest')).toBeUndefined();
    expect(layerOf('tests/support/core-api.ts')).toBeGreaterThan(layerOf('scripts/build-site.ts'));
  });

  it("sees an import of the site's source from @weft/mcp-docs, which builds from the site build and the docs model only", () => {
    const generator = 'packages/mcp-docs/scripts/generate-data.ts';
    for (const [specifier, file] of [
      ['../../../sidebars', 'sidebars.ts'],
      ['../../../docusaurus.config', 'docusaurus.config.ts'],
      ['@site/src/plugins/markdown-copies/index', 'src/plugins/markdown-copies/index.ts'],
    ] as const) {
      expect(resolveSpecifier(generator, specifier)).toBe(file);
      expect(layerOf(file), file).toBeGreaterThan(layerOf(generator));
    }
    expect(layerOf('docs/guides/production.md')).toBeGreaterThan(layerOf(generator));
    expect(layerOf('packages/mcp-docs/test/support.ts')).toBeLessThan(layerOf('sidebars.ts'));
    // The docs model is a shared library, below the package's build scripts.
    expect(resolveSpecifier(generator, '@weft-internal/docs-model/sidebar-order')).toBe(
      'libs/docs-model/sidebar-order.ts',
    );
    expect(layerOf('libs/docs-model/sidebar-order.ts')).toBeLessThan(layerOf(generator));
  });

  it('has no import that reaches up a layer', () => {
    expect(importCrossings().map(describeCrossing)).toEqual([]);
  });

  it('keeps scripts/ to commands, each run by a root npm script, and gives bench/ a README', () => {
    const run = new Set(
      Object.values(rootManifest.scripts ?? {}).flatMap((command) => filesRunBy(command, '.')),
    );
    const notCommands = tracked.filter((file) => file.startsWith('scripts/') && !run.has(file));
    expect(
      notCommands.map(
        (file) =>
          `${file} is in scripts/ but no npm script runs it: a library the commands share goes ` +
          'in tooling/, one the site shares too in libs/',
      ),
    ).toEqual([]);
    expect(run.has('scripts/test.ts')).toBe(true);
    expect(tracked).toContain('bench/README.md');
  });

  it('runs package scripts from the layer that owns them', () => {
    expect(filesRunBy('node --import tsx scripts/test.ts', '.')).toEqual(['scripts/test.ts']);
    expect(scriptViolations()).toEqual([]);
  });
});
