/**
 * The code samples readers meet outside the docs pages type-check against the packages' sources:
 * the `@example` blocks in the TSDoc of `@weft/core`'s public API (as TypeDoc reads them for the
 * API reference), those of every other first-party package, and the ```ts blocks of the package
 * READMEs. An editor shows the TSDoc examples on hover and npm shows the READMEs, so one that does
 * not compile (a missing import, a renamed option) misleads as much as a wrong sentence.
 *
 * All of them are checked in one TypeScript program, each sample a module of its own, since most
 * of a check's time goes into the packages' sources they import: one program checks those once.
 * Each set's test fails only on its own samples' errors, and on any error that names no file.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreExample } from './support/core-examples';
import { typeCheckModules } from './support/type-check-modules';

const root = path.resolve(__dirname, '../..');
const run = promisify(execFile);
const packagesDir = path.join(root, 'packages');

/** The file-name prefixes of the three sets in the shared program. */
const CORE = 'core-example-';
const PACKAGE = 'package-example-';
const README = 'readme-';

/**
 * Every ```ts block of every @example tag in the core's public API, as TypeDoc reads it: from a
 * child process, whose TypeScript program then holds no Vitest worker's event loop.
 */
async function coreExamples(): Promise<CoreExample[]> {
  const { stdout } = await run(
    process.execPath,
    [
      '--conditions=weft-source',
      '--import',
      'tsx',
      path.join(__dirname, 'support/core-examples.ts'),
    ],
    { cwd: root, maxBuffer: 64 * 1024 * 1024, timeout: 170_000 },
  );
  return JSON.parse(stdout) as CoreExample[];
}

/** The ```ts blocks inside `@example` tags of a source file, without the comment's stars. */
export function examplesOf(source: string): string[] {
  return [...source.matchAll(/@example\s*\n\s*\*\s*```ts\n([\s\S]*?)\n\s*\*\s*```/g)].map((match) =>
    (match[1] ?? '')
      .split('\n')
      .map((line) => line.replace(/^\s*\* ?/, ''))
      .join('\n'),
  );
}

/** Every `.ts` file under a directory, recursively. */
async function sourceFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const files = await Promise.all(
    entries.map((entry) => {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) return sourceFiles(full);
      return Promise.resolve(entry.name.endsWith('.ts') ? [full] : []);
    }),
  );
  return files.flat();
}

/** The TSDoc examples of every package but the core, by `<package>-<file>-<n>`. */
async function packageExamples(): Promise<Map<string, string>> {
  const names = (await readdir(packagesDir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && entry.name !== 'core')
    .map((entry) => entry.name)
    .sort();
  const modules = new Map<string, string>();
  for (const name of names) {
    const files = await sourceFiles(path.join(packagesDir, name, 'src')).catch(() => []);
    for (const file of files.sort()) {
      examplesOf(await readFile(file, 'utf8')).forEach((code, index) => {
        modules.set(`${name}-${path.basename(file, '.ts')}-${index + 1}`, code);
      });
    }
  }
  return modules;
}

interface Readme {
  /** The package's folder name, such as `model-openai`. */
  name: string;
  /** Its ```ts blocks, in order. */
  blocks: string[];
}

async function readReadmes(): Promise<Readme[]> {
  const names = (await readdir(packagesDir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const readmes: Readme[] = [];
  for (const name of names) {
    const text = await readFile(path.join(packagesDir, name, 'README.md'), 'utf8').catch(
      () => undefined,
    );
    if (text === undefined) continue;
    const blocks = [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
    readmes.push({ name, blocks });
  }
  return readmes;
}

/** The names a block imports: `import { a, type B as C } from ...` and `import d from ...`. */
function importedNames(block: string): string[] {
  const names: string[] = [];
  for (const match of block.matchAll(
    /^import\s+(?:type\s+)?(?:(\w+)\s*,?\s*)?(?:\{([^}]*)\})?\s*from/gm,
  )) {
    if (match[1]) names.push(match[1]);
    for (const part of (match[2] ?? '').split(',')) {
      const name = part
        .replace(/^\s*type\s+/, '')
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (name) names.push(name);
    }
  }
  return names;
}

/**
 * Groups a README's blocks into modules as a reader meets them: a block goes on with the
 * module before it (a provider made in one block is used in the next), unless it imports a
 * name that module already imported, which marks a fresh, complete example.
 */
function toModules(blocks: readonly string[]): string[] {
  const modules: { code: string[]; imported: Set<string> }[] = [];
  for (const [index, block] of blocks.entries()) {
    const names = importedNames(block);
    let current = modules.at(-1);
    if (!current || names.some((name) => current!.imported.has(name))) {
      current = { code: [], imported: new Set() };
      modules.push(current);
    }
    current.code.push(`// README block ${index + 1}\n${block}`);
    for (const name of names) current.imported.add(name);
  }
  return modules.map((module) => module.code.join('\n'));
}

/**
 * The diagnostics of tsc's report about files whose names start with `prefix`, and those that
 * name no file (a broken configuration): each begins on an unindented line, which a file's
 * diagnostic starts with `<file>(<line>,<column>)`.
 */
export function diagnosticsFor(report: string, prefix: string): string {
  const diagnostics: string[][] = [];
  for (const line of report.split('\n')) {
    if (line.trim() === '') continue;
    if (/^\s/.test(line) && diagnostics.length > 0) diagnostics.at(-1)!.push(line);
    else diagnostics.push([line]);
  }
  return diagnostics
    .filter(([first]) => {
      const file = /^(\S[^(]*)\(\d+,\d+\)/.exec(first!)?.[1];
      return file === undefined || path.basename(file).startsWith(prefix);
    })
    .map((lines) => lines.join('\n'))
    .join('\n');
}

let core: CoreExample[] = [];
let packages = new Map<string, string>();
let readmes: Readme[] = [];
let dir = '';
let report = '';

beforeAll(async () => {
  [core, packages, readmes] = await Promise.all([coreExamples(), packageExamples(), readReadmes()]);
  const modules = new Map<string, string>([
    ...core.map(({ owner, code }, index): [string, string] => [
      `${CORE}${index}`,
      `// ${owner}\n${code}`,
    ]),
    ...[...packages].map(([name, code]): [string, string] => [`${PACKAGE}${name}`, code]),
    ...readmes.flatMap((readme) =>
      toModules(readme.blocks).map((code, index): [string, string] => [
        `${README}${readme.name}-${index + 1}`,
        code,
      ]),
    ),
  ]);
  // Inside the repository, so `@weft/*` resolve to the workspace packages' sources.
  dir = await mkdtemp(path.join(root, '.code-samples-'));
  report = await typeCheckModules(root, dir, modules);
}, 180_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the type-check report', () => {
  const report = [
    ".code-samples-x/core-example-1.ts(2,7): error TS2322: Type 'string' is not assignable to type 'number'.",
    ".code-samples-x/readme-core-1.ts(4,1): error TS2304: Cannot find name 'runtime'.",
    '  Did you mean to import it?',
    "error TS5083: Cannot read file 'tsconfig.json'.",
  ].join('\n');

  it("gives each set its own files' diagnostics, with their continuation lines, and any that names no file", () => {
    expect(diagnosticsFor(report, README)).toBe(
      [
        ".code-samples-x/readme-core-1.ts(4,1): error TS2304: Cannot find name 'runtime'.",
        '  Did you mean to import it?',
        "error TS5083: Cannot read file 'tsconfig.json'.",
      ].join('\n'),
    );
    expect(diagnosticsFor(report, PACKAGE)).toBe("error TS5083: Cannot read file 'tsconfig.json'.");
  });
});

describe('TSDoc examples of @weft/core', () => {
  it('cover the API a plugin author calls', () => {
    const owners = new Set(core.map((example) => example.owner));
    for (const owner of [
      'Runtime',
      'Runtime.init',
      'Runtime.dispatch',
      'Plugin',
      'ModelProvider',
      'MemoryProvider',
      'ModelManager.call',
      'ModelManager.generateText',
      'ModelManager.getObject',
      'defineCapability',
      'formatZodSchema',
      'PromptRegistry',
    ]) {
      expect(owners, `no @example for ${owner}`).toContain(owner);
    }
  });

  it('compile against the public API [claim:liq-define-template] [claim:cg-tsdoc-checks] [claim:index-api-examples-checked] [claim:wp-api-examples-checked]', () => {
    expect(core.length).toBeGreaterThan(15);
    expect(diagnosticsFor(report, CORE)).toBe('');
  });
});

describe('TSDoc examples of the packages other than the core', () => {
  it('reads an example out of its comment', () => {
    const source = '/**\n * Hi.\n *\n * @example\n * ```ts\n * const a = 1;\n *   a;\n * ```\n */';
    expect(examplesOf(source)).toEqual(['const a = 1;\n  a;']);
  });

  it('type-check against the packages, each example as one module [claim:tsdoc-scripted-fallback-purpose] [claim:cg-tsdoc-checks]', () => {
    expect(packages.size).toBeGreaterThanOrEqual(9);
    expect(diagnosticsFor(report, PACKAGE)).toBe('');
  });
});

describe('the ```ts blocks of the package READMEs', () => {
  it('are found in every package README', () => {
    expect(readmes.map((readme) => readme.name)).toEqual([
      'coordinator-postgres',
      'core',
      'create-weft',
      'mcp-docs',
      'memory-postgres',
      'memory-sqlite',
      'model-openai',
      'plugin-chat',
      'plugin-mcp',
      'plugin-websocket',
      'testing',
    ]);
    // create-weft is a command, documented by its shell usage; every library shows code.
    for (const readme of readmes.filter((each) => each.name !== 'create-weft')) {
      expect(readme.blocks.length, readme.name).toBeGreaterThan(0);
    }
  });

  it('type-check against the packages, each README as one module read top to bottom [claim:core-readme-example]', () => {
    expect(diagnosticsFor(report, README)).toBe('');
  });
});
