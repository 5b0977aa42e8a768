/**
 * Bundles code that imports the Weft packages the way a web page's bundler would (esbuild,
 * platform `browser`, the packages' sources through the `weft-source` condition), and records
 * every import of something only Node.js has instead of failing at the first: a Node built-in,
 * express or cors, or pino's Node build (pino's `browser` field gives pages its console build).
 */
import { builtinModules } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';

const root = path.resolve(__dirname, '../..');

/** Node's built-in modules, by the names an import may use (`fs`, `node:fs`, `fs/promises`). */
const BUILTINS = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

/** Packages that exist for Node.js servers only. */
const NODE_ONLY_PACKAGES = ['express', 'cors'];

/** Files of packages whose Node build must not reach a page (their browser builds may). */
const NODE_ONLY_FILES = [/node_modules\/pino\/(pino\.js|lib\/)/, /node_modules\/thread-stream\//];

/** One import of something Node-only: what was imported, and the file that imported it. */
export interface NodeOnlyImport {
  imported: string;
  importer: string;
}

/** The bundle and what it says about the code that went in. */
export interface BrowserBundle {
  /** The minified bundle. */
  code: string;
  /** Its size gzipped, in bytes. */
  gzipBytes: number;
  /** Every Node-only import met, empty when the code is browser-safe. */
  nodeOnly: NodeOnlyImport[];
  /** The input files, relative to the repository. */
  inputs: string[];
  /** The bytes each input file left in the minified bundle (0 when tree-shaking dropped it). */
  bytesByInput: Record<string, number>;
  /**
   * What each input file imports, resolved to input paths, and how: `import-statement` for a
   * static import, `dynamic-import` for `import()`, which a page's bundler splits into a chunk
   * of its own that loads only when the call runs.
   */
  importsByInput: Record<string, { path: string; kind: string }[]>;
}

/**
 * Bundles a module for the browser.
 *
 * @param source - The entry's source, resolved as if it were a file at the repository's root.
 * @returns The minified bundle, its gzipped size and the Node-only imports found.
 */
export async function bundleForBrowser(source: string): Promise<BrowserBundle> {
  const nodeOnly: NodeOnlyImport[] = [];
  const relative = (file: string): string => path.relative(root, file) || file;
  const recordNodeOnly: Plugin = {
    name: 'record-node-only',
    setup(builder) {
      builder.onResolve({ filter: /.*/ }, (args) => {
        const bare = args.path.split('/')[0] ?? args.path;
        if (BUILTINS.has(args.path) || BUILTINS.has(bare) || NODE_ONLY_PACKAGES.includes(bare)) {
          nodeOnly.push({ imported: args.path, importer: relative(args.importer) });
          // Kept out of the bundle, so that the search goes on and finds every one.
          return { path: args.path, external: true };
        }
        return undefined;
      });
    },
  };
  const result = await build({
    stdin: { contents: source, resolveDir: root, loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    metafile: true,
    logLevel: 'silent',
    conditions: ['weft-source'],
    plugins: [recordNodeOnly],
  });
  const inputs = Object.keys(result.metafile.inputs);
  for (const input of inputs) {
    if (NODE_ONLY_FILES.some((pattern) => pattern.test(input))) {
      nodeOnly.push({ imported: input, importer: '(bundled file)' });
    }
  }
  const code = result.outputFiles[0]?.text ?? '';
  const [output] = Object.values(result.metafile.outputs);
  const bytesByInput = Object.fromEntries(
    Object.entries(output?.inputs ?? {}).map(([input, { bytesInOutput }]) => [
      input,
      bytesInOutput,
    ]),
  );
  const importsByInput = Object.fromEntries(
    Object.entries(result.metafile.inputs).map(([input, { imports }]) => [
      input,
      imports.map(({ path: imported, kind }) => ({ path: imported, kind })),
    ]),
  );
  return { code, gzipBytes: gzipSync(code).length, nodeOnly, inputs, bytesByInput, importsByInput };
}
