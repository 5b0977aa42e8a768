/**
 * The code samples of the documentation are files, and the test suite type-checks and runs them:
 * every TypeScript or JavaScript block of a docs page shows a file of examples/ (the page names it
 * with `file=<rootDir>/...`), examples/tsconfig.json compiles each TypeScript one (npm run
 * typecheck and check:docs run it), and each is run by a test: it is a test file, a test file
 * reaches it through its imports, or a test names its path to run it (a page's commands, the
 * CommonJS sample). The Run panels' editors show programs too: samples of examples/, held to the
 * same rules, or a package's own source, which its package's tsconfig.json compiles and its
 * tests reach.
 */
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const CODE_LANGUAGES = new Set([
  'ts',
  'tsx',
  'typescript',
  'js',
  'jsx',
  'javascript',
  'mjs',
  'cjs',
]);

/**
 * Blocks that show no program but the shape of something a reader writes, by page: the
 * contributing guide shows what a TSDoc comment with a claim tag looks like.
 */
const ILLUSTRATIONS: Readonly<Record<string, number>> = { 'docs/contributing-guide.md': 1 };

/** Where the test files that run samples live. */
const TEST_DIRS = ['examples', 'tests', 'packages/create-weft/test'];

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => pattern.test(file) && !file.split(path.sep).includes('node_modules'))
    .map((file) => path.posix.join(dir, file.split(path.sep).join('/')));
}

/** Every code block of the pages in TypeScript or JavaScript, with the file it shows, if any. */
function codeBlocks(): { page: string; file: string | undefined }[] {
  const blocks: { page: string; file: string | undefined }[] = [];
  for (const page of filesUnder('docs', /\.mdx?$/)) {
    const text = readFileSync(path.join(root, page), 'utf8');
    // A fence may be indented, as in a list item.
    for (const [, language, meta] of text.matchAll(/^[ \t]*```(\w+)([^\n]*)$/gm)) {
      if (!CODE_LANGUAGES.has(language ?? '')) continue;
      blocks.push({ page, file: /\bfile=<rootDir>\/(\S+)/.exec(meta ?? '')?.[1] });
    }
  }
  return blocks;
}

/**
 * The files the Run panels' editors show a reader, from the `!!@site/...?raw` imports of
 * src/components/RunPanel/examples/<id>/editor*.ts.
 */
function editorSources(): string[] {
  const dir = 'src/components/RunPanel/examples';
  return filesUnder(dir, /(^|\/)editor[^/]*\.ts$/).flatMap((file) =>
    [...readFileSync(path.join(root, file), 'utf8').matchAll(/!!@site\/([^'"?]+)\?raw/g)].map(
      ([, source]) => source as string,
    ),
  );
}

/** The files examples/tsconfig.json compiles, or another tsconfig.json of the repository. */
function typeCheckedFiles(tsconfig = 'examples/tsconfig.json'): Set<string> {
  const configPath = path.join(root, tsconfig);
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(configPath));
  return new Set(
    parsed.fileNames.map((file) => path.relative(root, file).split(path.sep).join('/')),
  );
}

function isFile(file: string): boolean {
  const full = path.join(root, file);
  return existsSync(full) && statSync(full).isFile();
}

/** The relative imports of a file, as repository paths (a `.js` specifier names its `.ts`). */
function relativeImports(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map(({ fileName }) => fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      const candidates = [
        target,
        target.replace(/\.js$/, '.ts'),
        target.replace(/\.js$/, '.tsx'),
        `${target}/index.ts`,
      ];
      return candidates.find(isFile) ?? target;
    });
}

/** The sample files that tests run: reached through imports from a test, or named by one. */
function runFiles(dirs: readonly string[] = TEST_DIRS): { reached: Set<string>; named: string } {
  const tests = dirs.flatMap((dir) => filesUnder(dir, /\.test\.tsx?$/));
  const reached = new Set<string>();
  const pending = [...tests];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (reached.has(file)) continue;
    reached.add(file);
    pending.push(...relativeImports(file).filter(isFile));
  }
  const named = tests.map((test) => readFileSync(path.join(root, test), 'utf8')).join('\n');
  return { reached, named };
}

describe('the code samples of the documentation [claim:wp-samples-run] [claim:index-samples-tested]', () => {
  const blocks = codeBlocks();
  const samples = [...new Set(blocks.flatMap(({ file }) => (file ? [file] : [])))];

  it('are files of examples/, each shown by a block that names it', () => {
    // Dozens of pages show samples; an empty scan would prove nothing.
    expect(samples.length).toBeGreaterThan(50);
    const inline = new Map<string, number>();
    for (const { page, file } of blocks) {
      if (file === undefined) inline.set(page, (inline.get(page) ?? 0) + 1);
    }
    expect(
      Object.fromEntries(inline),
      'code blocks written in a page, not shown from a file',
    ).toEqual(ILLUSTRATIONS);
    const elsewhere = samples.filter(
      (file) => !file.startsWith('examples/') || !existsSync(path.join(root, file)),
    );
    expect(elsewhere, 'samples missing or outside examples/').toEqual([]);
  });

  it('are type-checked by examples/tsconfig.json when they are TypeScript [claim:cg-samples-type-checked]', () => {
    const checked = typeCheckedFiles();
    const unchecked = samples.filter((file) => /\.tsx?$/.test(file) && !checked.has(file));
    expect(unchecked, 'TypeScript samples examples/tsconfig.json does not compile').toEqual([]);
  });

  it('are each run by a test, which imports them or names their path [claim:cg-samples-run-by-test]', () => {
    const { reached, named } = runFiles();
    const unrun = samples.filter((file) => !reached.has(file) && !named.includes(file));
    expect(unrun, 'samples no test imports, directly or not, or names').toEqual([]);
  });

  it("include what the Run panels' editors show: samples of examples/ or a package's own source, type-checked and run by a test", () => {
    const sources = [...new Set(editorSources())];
    // Five panels, one editor each, the triggers panel two: an empty scan would prove nothing.
    expect(sources.length).toBeGreaterThanOrEqual(5);
    const checkedSamples = typeCheckedFiles();
    const { reached } = runFiles();
    const problems: string[] = [];
    for (const source of sources) {
      const pkg = /^packages\/([^/]+)\/src\//.exec(source)?.[1];
      if (!isFile(source)) problems.push(`${source}: no such file`);
      else if (source.startsWith('examples/')) {
        if (!checkedSamples.has(source)) problems.push(`${source}: not type-checked`);
        if (!reached.has(source)) problems.push(`${source}: no test reaches it`);
      } else if (pkg !== undefined) {
        if (!typeCheckedFiles(`packages/${pkg}/tsconfig.json`).has(source))
          problems.push(`${source}: not type-checked by its package`);
        if (!runFiles([`packages/${pkg}/test`]).reached.has(source))
          problems.push(`${source}: no test of its package reaches it`);
      } else problems.push(`${source}: neither a sample of examples/ nor a package's source`);
    }
    expect(problems).toEqual([]);
  });
});
