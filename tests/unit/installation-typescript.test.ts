/**
 * Installation, "Use from CommonJS": which declarations TypeScript finds for `@weft/core` from a
 * CommonJS file, by its module resolution, read from the core's real package.json. The dist/
 * files are taken to exist wherever the manifest points, so no build is needed.
 */
import { readFileSync } from 'node:fs';
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
