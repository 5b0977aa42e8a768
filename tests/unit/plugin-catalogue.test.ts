import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CatalogueError,
  installCommand,
  readCatalogue,
  sortCatalogue,
  validatePackage,
  type CatalogueEntry,
} from '../../src/plugins/plugin-catalogue/catalogue';

function manifest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: '@weft/model-openai',
    version: '0.1.0',
    description: 'OpenAI model provider for Weft.',
    keywords: ['weft', 'model-provider', 'openai'],
    weft: { kind: 'model-provider', displayName: 'OpenAI' },
    ...overrides,
  };
}

function expectCatalogueError(run: () => unknown, field: string, problem: RegExp): void {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogueError);
    const catalogueError = error as CatalogueError;
    expect(catalogueError.field).toBe(field);
    expect(catalogueError.message).toContain('packages/model-openai/package.json');
    expect(catalogueError.message).toMatch(problem);
    return;
  }
  throw new Error(`expected a CatalogueError for ${field}`);
}

describe('validatePackage', () => {
  it('returns an entry for a complete package.json', () => {
    expect(validatePackage('model-openai', manifest())).toEqual({
      name: '@weft/model-openai',
      version: '0.1.0',
      description: 'OpenAI model provider for Weft.',
      keywords: ['weft', 'model-provider', 'openai'],
      kind: 'model-provider',
      displayName: 'OpenAI',
      directory: 'model-openai',
    });
  });

  it('removes duplicate keywords', () => {
    const entry = validatePackage('model-openai', manifest({ keywords: ['ai', 'ai', 'llm'] }));
    expect(entry.keywords).toEqual(['ai', 'llm']);
  });

  it.each([
    ['name', { name: undefined }, /is missing/],
    ['name', { name: 'left-pad' }, /@weft scope/],
    ['version', { version: '' }, /non-empty string/],
    ['description', { description: undefined }, /is missing/],
    ['description', { description: 42 }, /non-empty string/],
    ['keywords', { keywords: undefined }, /is missing/],
    ['keywords', { keywords: [] }, /non-empty array/],
    ['keywords', { keywords: ['ok', 3] }, /non-empty array/],
    ['weft', { weft: undefined }, /is missing/],
    ['weft', { weft: 'plugin' }, /must be an object/],
    ['weft.kind', { weft: { displayName: 'OpenAI' } }, /is missing/],
    [
      'weft.kind',
      { weft: { kind: 'provider', displayName: 'OpenAI' } },
      /must be one of core, model-provider/,
    ],
    ['weft.displayName', { weft: { kind: 'plugin' } }, /is missing/],
  ])('rejects an invalid %s', (field, overrides, problem) => {
    expectCatalogueError(
      () => validatePackage('model-openai', manifest(overrides)),
      field,
      problem,
    );
  });

  it('rejects a file that is not an object', () => {
    expectCatalogueError(() => validatePackage('model-openai', ['x']), 'the file', /JSON object/);
  });
});

describe('sortCatalogue', () => {
  const entry = (kind: CatalogueEntry['kind'], displayName: string): CatalogueEntry => ({
    name: `@weft/${displayName.toLowerCase()}`,
    version: '1.0.0',
    description: displayName,
    keywords: ['weft'],
    kind,
    displayName,
    directory: displayName.toLowerCase(),
  });

  it('orders by kind, then by display name', () => {
    const sorted = sortCatalogue([
      entry('tooling', 'Testing'),
      entry('coordinator', 'PostgreSQL coordinator'),
      entry('model-provider', 'OpenAI'),
      entry('core', 'Core'),
      entry('model-provider', 'Anthropic'),
      entry('memory-provider', 'SQLite'),
    ]);
    expect(sorted.map((item) => item.displayName)).toEqual([
      'Core',
      'Anthropic',
      'OpenAI',
      'SQLite',
      'PostgreSQL coordinator',
      'Testing',
    ]);
  });
});

describe('readCatalogue', () => {
  let packagesDir: string;

  beforeEach(async () => {
    packagesDir = await mkdtemp(path.join(tmpdir(), 'weft-catalogue-'));
  });

  afterEach(async () => {
    await rm(packagesDir, { recursive: true, force: true });
  });

  async function addPackage(directory: string, content: unknown): Promise<void> {
    await mkdir(path.join(packagesDir, directory));
    const text = typeof content === 'string' ? content : JSON.stringify(content);
    await writeFile(path.join(packagesDir, directory, 'package.json'), text);
  }

  it('reads every package folder, skips folders without package.json and sorts', async () => {
    await addPackage('model-openai', manifest());
    await addPackage(
      'core',
      manifest({
        name: '@weft/core',
        description: 'The Weft runtime.',
        weft: { kind: 'core', displayName: 'Core' },
      }),
    );
    await mkdir(path.join(packagesDir, 'scratch'));

    const { entries, errors } = await readCatalogue(packagesDir);
    expect(errors).toEqual([]);
    expect(entries.map((item) => item.name)).toEqual(['@weft/core', '@weft/model-openai']);
  });

  it('reports each invalid package by folder and field', async () => {
    await addPackage('model-openai', manifest());
    await addPackage('testing', { name: '@weft/testing', version: '0.1.0' });
    await addPackage('broken', '{ not json');

    const { entries, errors } = await readCatalogue(packagesDir);
    expect(entries.map((item) => item.directory)).toEqual(['model-openai']);
    expect(errors.map((error) => [error.directory, error.field])).toEqual([
      ['broken', 'the file'],
      ['testing', 'description'],
    ]);
    expect(errors[0]?.message).toMatch(/not valid JSON/);
  });
});

describe('installCommand', () => {
  it('installs the package by its npm name', () => {
    expect(installCommand({ name: '@weft/memory-sqlite' })).toBe('npm install @weft/memory-sqlite');
  });

  it('runs the project creator instead of installing it', () => {
    expect(installCommand({ name: 'create-weft' })).toBe('npm create weft@latest my-agent');
  });
});

describe('validatePackage and the project creator', () => {
  it('accepts create-weft, the one package outside the @weft scope', () => {
    expect(validatePackage('create-weft', manifest({ name: 'create-weft' })).name).toBe(
      'create-weft',
    );
  });
});
