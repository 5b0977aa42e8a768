/**
 * Installation, "Use from CommonJS": which declarations TypeScript finds for `@weft/core` from a
 * CommonJS file, by its module resolution, read from the core's real package.json. The dist/
 * files are taken to exist wherever the manifest points, so no build is needed.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const manifestText = readFileSync(path.join(__dirname, '../../packages/core/package.json'), 'utf8');

/** Every path the manifest names (`./dist/index.d.cts`...), found anywhere in it. */
function namedPaths(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === 'string' && value.startsWith('./')) into.add(value.slice(2));
  else if (value && typeof value === 'object')
    for (const child of Object.values(value)) namedPaths(child, into);
  return into;
}

const PROJECT = '/virtual/project';
const CORE = `${PROJECT}/node_modules/@weft/core/`;
const shipped = namedPaths(JSON.parse(manifestText));

const host: ts.ModuleResolutionHost = {
  fileExists: (file) =>
    file === `${CORE}package.json` ||
    (file.startsWith(CORE) && shipped.has(file.slice(CORE.length))),
  readFile: (file) => (file === `${CORE}package.json` ? manifestText : undefined),
  directoryExists: (dir) => CORE.startsWith(`${dir}/`) || dir.startsWith(CORE),
};

/**
 * The declaration file a `.cts` file in the project gets for `name`, relative to the core. Only
 * node16 and nodenext tell a file's module format apart; node10 resolves without one, as tsc does.
 */
function declarationsFor(name: string, options: ts.CompilerOptions): string | undefined {
  const modeAware =
    options.moduleResolution === ts.ModuleResolutionKind.Node16 ||
    options.moduleResolution === ts.ModuleResolutionKind.NodeNext;
  const { resolvedModule } = ts.resolveModuleName(
    name,
    `${PROJECT}/consumer.cts`,
    options,
    host,
    undefined,
    undefined,
    modeAware ? ts.ModuleKind.CommonJS : undefined,
  );
  return resolvedModule?.resolvedFileName.slice(CORE.length);
}

describe('TypeScript compiling to CommonJS', () => {
  it.each(['node16', 'nodenext'] as const)(
    'gets the .d.cts declarations of every entry with moduleResolution %s [claim:install-cts]',
    (setting) => {
      const options = ts.convertCompilerOptionsFromJson(
        { module: setting, moduleResolution: setting },
        PROJECT,
      ).options;
      expect(declarationsFor('@weft/core', options)).toBe('dist/index.d.cts');
      expect(declarationsFor('@weft/core/node', options)).toBe('dist/node.d.cts');
    },
  );

  it('finds the ES module declarations of every entry under node10, the default of "module": "commonjs", so their types fit together [claim:install-cts-node10]', () => {
    const { options } = ts.convertCompilerOptionsFromJson({ module: 'commonjs' }, PROJECT);
    // No moduleResolution: TypeScript takes node10 for "module": "commonjs", and says so.
    const traced: string[] = [];
    ts.resolveModuleName(
      '@weft/core',
      `${PROJECT}/consumer.cts`,
      { ...options, traceResolution: true },
      {
        ...host,
        trace: (line) => traced.push(line),
      },
    );
    expect(traced).toContain("Module resolution kind is not specified, using 'Node10'.");
    // One format for all: the .d.ts and .d.cts builds are separate copies of the declarations,
    // and a Runtime of one is not a Runtime of the other (serverOf(runtime) failed with TS2345).
    expect(declarationsFor('@weft/core', options)).toBe('dist/index.d.ts');
    expect(declarationsFor('@weft/core/node', options)).toBe('dist/node.d.ts');
    expect(declarationsFor('@weft/core/internal', options)).toBe('dist/internal.d.ts');
  });
});

interface Manifest {
  name: string;
  private?: boolean;
  exports?: Record<string, { import?: { types?: string } } | string>;
}

const PACKAGES = path.join(__dirname, '../../packages');
const published = readdirSync(PACKAGES, { withFileTypes: true })
  .filter((entry) => existsSync(path.join(PACKAGES, entry.name, 'package.json')))
  .map((entry) => {
    const text = readFileSync(path.join(PACKAGES, entry.name, 'package.json'), 'utf8');
    return { text, manifest: JSON.parse(text) as Manifest };
  })
  .filter(({ manifest }) => manifest.private !== true);

/**
 * The declaration file node10 finds for `name` in `installed`, a published package's real
 * manifest installed in the virtual project, and for a relative import (`./search.js`) of one of
 * its declaration files; relative to the package's folder. Every file the manifest names exists.
 */
function node10Resolution(
  installed: { text: string; manifest: Manifest },
  name: string,
  from = `${PROJECT}/consumer.cts`,
): string | undefined {
  const folder = `${PROJECT}/node_modules/${installed.manifest.name}/`;
  const files = namedPaths(JSON.parse(installed.text));
  const packageHost: ts.ModuleResolutionHost = {
    fileExists: (file) =>
      file === `${folder}package.json` ||
      (file.startsWith(folder) && files.has(file.slice(folder.length))),
    readFile: (file) => (file === `${folder}package.json` ? installed.text : undefined),
    directoryExists: (dir) => folder.startsWith(`${dir}/`) || dir.startsWith(folder),
  };
  const { options } = ts.convertCompilerOptionsFromJson({ module: 'commonjs' }, PROJECT);
  const { resolvedModule } = ts.resolveModuleName(name, from, options, packageHost);
  return resolvedModule?.resolvedFileName.slice(folder.length);
}

describe('every published package under node10', () => {
  it.each(published.map((entry) => [entry.manifest.name, entry] as const))(
    '%s: each entry resolves to its ES module declarations, the copy its other entries re-export [claim:install-cts-node10]',
    (_name, installed) => {
      const entries = Object.entries(installed.manifest.exports ?? {}).flatMap(([key, value]) =>
        typeof value === 'object' && value.import?.types !== undefined
          ? [[key, value.import.types.slice(2)] as const]
          : [],
      );
      expect(entries.length).toBeGreaterThan(0);
      for (const [key, types] of entries) {
        const specifier = `${installed.manifest.name}${key.slice(1)}`;
        // A .d.cts copy beside the root's .d.ts declares every class a second time: a
        // DocsSearch of '@weft/mcp-docs' was then no DocsSearch of '@weft/mcp-docs/search' (TS2719).
        expect(node10Resolution(installed, specifier), specifier).toBe(types);
        // What the root's declarations re-export from the entry's file (`./search.js`) is that file.
        const rootTypes = entries.find(([entry]) => entry === '.')?.[1] as string;
        const fromRoot = `${PROJECT}/node_modules/${installed.manifest.name}/${rootTypes}`;
        const relative = `./${path.posix.relative(path.posix.dirname(rootTypes), types).replace(/\.d\.ts$/, '.js')}`;
        expect(node10Resolution(installed, relative, fromRoot), relative).toBe(types);
      }
    },
  );
});
