import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typeCheckModules } from './support/type-check-modules';

const root = path.resolve(__dirname, '../..');
const packagesDir = path.join(root, 'packages');

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

describe('the ```ts blocks of the package READMEs', () => {
  let readmes: Readme[] = [];
  let dir = '';

  beforeAll(async () => {
    readmes = await readReadmes();
    // Inside the repository, so `@weft/*` resolve to the workspace packages.
    dir = await mkdtemp(path.join(root, '.readme-samples-'));
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

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

  it('type-check against the packages, each README as one module read top to bottom [claim:core-readme-example]', async () => {
    const modules = new Map(
      readmes.flatMap((readme) =>
        toModules(readme.blocks).map(
          (code, index) => [`${readme.name}-${index + 1}`, code] as const,
        ),
      ),
    );
    expect(await typeCheckModules(root, dir, modules)).toBe('');
  }, 120_000);
});
