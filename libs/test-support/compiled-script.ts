/**
 * A TypeScript entry that tests start as a child process, compiled once into one ES module that
 * plain `node` runs. Started through tsx instead, each start pays for tsx's loader thread and
 * its transforms, about half a second of processor time, and some tests start a fixture server
 * or a command tens of times.
 *
 * The compiled module runs as its source would: the workspace's packages are bundled from their
 * sources (the `weft-source` condition, as the tests load them), every other package stays an
 * import resolved from the entry's own package, each module keeps its own `import.meta.url` (and
 * its `__dirname` and `__filename`, which tsx provides), and `process.argv[1]` is the entry's
 * path, so paths a module resolves relative to itself, and a script's "am I the main module"
 * check, are the same as from source.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

/** The packages bundled from source: the workspace's own, published or private. */
const WORKSPACE_PACKAGE = /^@weft(-internal)?\//;

const compiled = new Map<string, Promise<string>>();

/** The folder of the nearest package.json above a file: where its imports resolve from. */
function packageDirOf(file: string): string {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${file}`);
  }
}

/**
 * Declarations of `__dirname` and `__filename`, which tsx gives a TypeScript module as CommonJS
 * has them and an ES module lacks, for a module that uses one without declaring it. Each is the
 * module's own: esbuild renames a top-level name that two bundled modules declare.
 */
function commonJsNames(file: string, source: string): string {
  return (['__dirname', '__filename'] as const)
    .filter(
      (name) =>
        new RegExp(`\\b${name}\\b`).test(source) &&
        !new RegExp(`\\b(const|let|var)\\s+${name}\\b`).test(source),
    )
    .map(
      (name) =>
        `const ${name} = ${JSON.stringify(name === '__dirname' ? path.dirname(file) : file)};`,
    )
    .join('');
}

/**
 * Keeps bare imports of other packages as imports (a `#` import is the importing package's own,
 * resolved here), and gives each module its own URL.
 */
const asFromSource: Plugin = {
  name: 'as-from-source',
  setup(build) {
    build.onResolve({ filter: /^[^./#]/ }, (args) =>
      WORKSPACE_PACKAGE.test(args.path) ? undefined : { path: args.path, external: true },
    );
    build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      return {
        // On the module's first line, so its line numbers stay the source's.
        contents:
          commonJsNames(args.path, source) +
          source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
        loader: /\.[cm]?tsx?$/.test(args.path) ? 'ts' : 'js',
      };
    });
  },
};

/**
 * Compiles `entry` (once per process) and answers the path of the module to run with `node`. The module is named by a hash of its text, in the node_modules/.cache
 * folder of the entry's package, so test files compiling the same entry at once write the same
 * file, and an unchanged entry is not written again.
 *
 * @param entry - Absolute path of the TypeScript entry.
 */
export function compiledScript(entry: string): Promise<string> {
  let file = compiled.get(entry);
  if (file === undefined) {
    file = compile(entry);
    compiled.set(entry, file);
  }
  return file;
}

async function compile(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    conditions: ['weft-source'],
    plugins: [asFromSource],
    banner: { js: `process.argv[1] = ${JSON.stringify(entry)};` },
    logLevel: 'silent',
  });
  const text = result.outputFiles[0]!.text;
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const dir = path.join(packageDirOf(entry), 'node_modules', '.cache', 'weft-compiled-scripts');
  const file = path.join(dir, `${path.basename(entry).replace(/\.[cm]?tsx?$/, '')}-${hash}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, text);
    renameSync(partial, file);
  }
  return file;
}
