/**
 * The workspace packages depend one way: @weft/core depends on none of the others, and each
 * other package imports only the workspace packages its package.json declares (its sources:
 * `dependencies`; its tests and build scripts: `devDependencies` too), with no circle among those
 * declarations. A core test that borrows a double of @weft/testing would point the core back up at
 * a package built on it; such a test belongs in tests/integration/, which sits above every package.
 * The private libraries of libs/ (`@weft-internal/*`, never published) are workspaces too: a
 * published package's tests and build scripts may use one, declared in `devDependencies`, but its
 * sources never import one and its `dependencies` never name one, or its tarball would need a
 * package no registry has.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');

interface Manifest {
  name: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

const packages = readJson<{ workspaces: string[] }>(path.join(root, 'package.json')).workspaces.map(
  (dir) => ({ dir, manifest: readJson<Manifest>(path.join(root, dir, 'package.json')) }),
);
const workspaceNames = new Set(packages.map(({ manifest }) => manifest.name));
/** The private libraries of libs/: workspaces that are never published. */
const libraries = packages.filter(({ dir }) => dir.startsWith('libs/'));
const libraryNames = new Set(libraries.map(({ manifest }) => manifest.name));
const published = packages.filter(({ dir }) => dir.startsWith('packages/'));

/** The package a bare module specifier names (`@weft/core/internal` → `@weft/core`), or undefined. */
function packageOf(specifier: string): string | undefined {
  // Relative paths, Node.js's own modules and the package's own `imports` map (#platform).
  if (/^(\.|\/|node:|#)/.test(specifier)) {
    return undefined;
  }
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  return builtinModules.includes(name) ? undefined : name;
}

/** Each TypeScript file under `dir` (relative to the root) with every package it imports. */
function packageImports(dir: string): { file: string; imports: string[] }[] {
  if (!existsSync(path.join(root, dir))) return [];
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter(
      (file) => /\.(ts|mts|tsx)$/.test(file) && !file.split(path.sep).includes('node_modules'),
    )
    .map((file) => {
      const relative = path.posix.join(dir, file.split(path.sep).join('/'));
      const text = readFileSync(path.join(root, relative), 'utf8');
      const imports = ts
        .preProcessFile(text, true, true)
        .importedFiles.map(({ fileName }) => packageOf(fileName))
        .filter((name): name is string => name !== undefined);
      return { file: relative, imports: [...new Set(imports)].sort() };
    });
}

/** Each TypeScript file under `dir` (relative to the root) with the workspace packages it imports. */
function workspaceImports(dir: string): { file: string; imports: string[] }[] {
  return packageImports(dir).map(({ file, imports }) => ({
    file,
    imports: imports.filter((name) => workspaceNames.has(name)),
  }));
}

const workspaceDeclared = (...lists: (Record<string, string> | undefined)[]): string[] =>
  lists.flatMap((list) => Object.keys(list ?? {})).filter((name) => workspaceNames.has(name));

describe('the layers of the workspace packages', () => {
  it('reads every package and the imports between them', () => {
    expect(packages.map(({ manifest }) => manifest.name)).toContain('@weft/core');
    expect(packages.length).toBeGreaterThan(4);
    const sqliteSources = workspaceImports('packages/memory-sqlite/src');
    expect(sqliteSources.flatMap(({ imports }) => imports)).toContain('@weft/core');
  });

  it('keeps @weft/core, its sources and its tests, free of every other published package [claim:cg-package-layers]', () => {
    const core = packages.find(({ manifest }) => manifest.name === '@weft/core')!;
    expect(
      workspaceDeclared(
        core.manifest.dependencies,
        core.manifest.devDependencies,
        core.manifest.peerDependencies,
      ).filter((name) => !libraryNames.has(name)),
    ).toEqual([]);
    const reachesUp = workspaceImports(core.dir)
      .map(({ file, imports }) => ({
        file,
        imports: imports.filter((name) => name !== '@weft/core' && !libraryNames.has(name)),
      }))
      .filter(({ imports }) => imports.length > 0);
    expect(reachesUp).toEqual([]);
  });

  it('lets each package and library import only the workspace packages it declares [claim:cg-package-layers]', () => {
    const undeclared: string[] = [];
    for (const { dir, manifest } of packages) {
      const runtime = new Set([
        manifest.name,
        ...workspaceDeclared(manifest.dependencies, manifest.peerDependencies),
      ]);
      const forTests = new Set([...runtime, ...workspaceDeclared(manifest.devDependencies)]);
      // A library is never built or packed: all of it is what its consumers run.
      const checks = libraryNames.has(manifest.name)
        ? [{ folder: '', allowed: runtime, field: 'dependencies or peerDependencies' }]
        : [
            { folder: 'src', allowed: runtime, field: 'dependencies' },
            { folder: 'test', allowed: forTests, field: 'devDependencies' },
            { folder: 'scripts', allowed: forTests, field: 'devDependencies' },
          ];
      for (const { folder, allowed, field } of checks) {
        for (const { file, imports } of workspaceImports(path.posix.join(dir, folder))) {
          for (const name of imports.filter((imported) => !allowed.has(imported))) {
            undeclared.push(
              `${file}: imports ${name}, which ${dir}/package.json does not list in ${field}`,
            );
          }
        }
      }
    }
    expect(undeclared).toEqual([]);
  });

  it("lets a published package's sources import only Node.js and the packages its package.json declares, so its tarball installs what it runs [claim:cg-package-sources-declared]", () => {
    // ESLint's undeclared-import rule accepts what the workspace root declares, which a user of
    // the tarball does not get: this check reads the package's own manifest only.
    const undeclared: string[] = [];
    for (const { dir, manifest } of published) {
      const declared = new Set([
        manifest.name,
        ...Object.keys(manifest.dependencies ?? {}),
        ...Object.keys(manifest.peerDependencies ?? {}),
        ...Object.keys(manifest.optionalDependencies ?? {}),
      ]);
      for (const { file, imports } of packageImports(path.posix.join(dir, 'src'))) {
        for (const name of imports.filter((imported) => !declared.has(imported))) {
          undeclared.push(`${file}: imports ${name}, which ${dir}/package.json does not declare`);
        }
      }
    }
    expect(undeclared).toEqual([]);
    // The check reads third-party imports, not only the workspace's.
    expect(
      packageImports('packages/memory-sqlite/src').flatMap(({ imports }) => imports),
    ).toContain('better-sqlite3');
  });

  it('keeps the private libraries out of what a published package ships', () => {
    expect([...libraryNames].sort()).toEqual([
      '@weft-internal/diagrams',
      '@weft-internal/docs-model',
      '@weft-internal/generated-assets',
      '@weft-internal/test-support',
    ]);
    expect(libraries.every(({ manifest }) => manifest.private === true)).toBe(true);
    expect(published.every(({ manifest }) => manifest.private !== true)).toBe(true);
    const leaks: string[] = [];
    for (const { dir, manifest } of published) {
      for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies'] as const) {
        for (const name of Object.keys(manifest[field] ?? {}).filter((n) => libraryNames.has(n))) {
          leaks.push(`${dir}/package.json names the private ${name} in ${field}`);
        }
      }
      for (const { file, imports } of workspaceImports(path.posix.join(dir, 'src'))) {
        for (const name of imports.filter((imported) => libraryNames.has(imported))) {
          leaks.push(`${file} imports the private ${name}, which no registry has`);
        }
      }
    }
    expect(leaks).toEqual([]);
  });

  it('has no circle among the packages each one declares', () => {
    // A published package's tests may use a library that is built on the package's sources (the
    // core's tests use test-support, whose doubles extend the core's classes): that reaches the
    // package's runtime only, through its `dependencies` and `peerDependencies`, and so is no
    // circle unless those lead back.
    const runtimeOf = (manifest: Manifest): string[] =>
      workspaceDeclared(manifest.dependencies, manifest.peerDependencies);
    const node = (name: string, whole: boolean): string =>
      whole || libraryNames.has(name) ? name : `${name} (runtime)`;
    const edges = new Map<string, string[]>();
    for (const { manifest } of packages) {
      const { name } = manifest;
      const others = (list: string[]): string[] => list.filter((other) => other !== name);
      if (libraryNames.has(name)) {
        edges.set(
          name,
          others(runtimeOf(manifest)).map((next) => node(next, false)),
        );
        continue;
      }
      const all = workspaceDeclared(
        manifest.dependencies,
        manifest.devDependencies,
        manifest.peerDependencies,
      );
      edges.set(
        name,
        others(all).map((next) => node(next, true)),
      );
      edges.set(
        node(name, false),
        others(runtimeOf(manifest)).map((next) => node(next, false)),
      );
    }
    const circles: string[] = [];
    const walk = (name: string, trail: string[]): void => {
      if (trail.includes(name)) {
        circles.push([...trail.slice(trail.indexOf(name)), name].join(' → '));
        return;
      }
      for (const next of edges.get(name) ?? []) walk(next, [...trail, name]);
    };
    for (const name of edges.keys()) walk(name, []);
    expect(circles).toEqual([]);
  });
});
