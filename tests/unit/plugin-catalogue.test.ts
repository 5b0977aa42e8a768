import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { globSync } from 'tinyglobby';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CatalogueError,
  installCommand,
  readCatalogue,
  sortCatalogue,
  validatePackage,
  type CatalogueEntry,
} from '@weft-internal/docs-model/catalogue/catalogue';

function manifest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: '@weft/model-openai',
    version: '0.1.0',
    description: 'OpenAI model provider for Weft.',
    keywords: ['weft', 'model-provider', 'openai'],
    engines: { node: '^20.19.0 || ^22.12.0 || ^24.0.0 || ^26.0.0' },
    peerDependencies: { '@weft/core': '^0.1.0' },
    weft: {
      kind: 'model-provider',
      displayName: 'OpenAI',
      guide: '/docs/model-providers/overview/',
      provides: { capabilities: ['text-generation'] },
      requires: { services: ['openai-compatible-api'] },
      runtimes: ['node'],
    },
    ...overrides,
  };
}

/** The test manifest's weft field with some fields replaced (undefined removes one). */
function weft(overrides: Record<string, unknown>): Record<string, unknown> {
  return { weft: { ...(manifest().weft as Record<string, unknown>), ...overrides } };
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
      guide: '/docs/model-providers/overview/',
      provides: {
        capabilities: ['text-generation'],
        services: [],
        executors: [],
        triggers: [],
      },
      // A package that loads core needs a runtime; that requirement is read, not declared.
      requires: { capabilities: [], services: ['runtime', 'openai-compatible-api'] },
      runtimes: ['node'],
      coreVersions: '^0.1.0',
      nodeVersions: '^20.19.0 || ^22.12.0 || ^24.0.0 || ^26.0.0',
    });
  });

  it('reads the core versions from a direct dependency when there is no peer dependency', () => {
    const entry = validatePackage(
      'model-openai',
      manifest({ peerDependencies: undefined, dependencies: { '@weft/core': '0.1.0' } }),
    );
    expect(entry.coreVersions).toBe('0.1.0');
  });

  it('gives a package that does not load core no core versions and no runtime requirement', () => {
    const entry = validatePackage('model-openai', manifest({ peerDependencies: undefined }));
    expect(entry.coreVersions).toBeUndefined();
    expect(entry.requires.services).toEqual(['openai-compatible-api']);
  });

  it('gives a package that loads core but says it runs on its own (weft.standalone) no runtime requirement [claim:cg-catalogue-standalone]', () => {
    const base = manifest();
    const weft = base.weft as Record<string, unknown>;
    const entry = validatePackage(
      'model-openai',
      manifest({ weft: { ...weft, standalone: true } }),
    );
    expect(entry.coreVersions).toBe('^0.1.0');
    expect(entry.requires.services).toEqual(['openai-compatible-api']);
    expect(() =>
      validatePackage('model-openai', manifest({ weft: { ...weft, standalone: 'yes' } })),
    ).toThrow(/weft\.standalone.*must be true or false/);
  });

  it('gives core its own version, and requires it to provide the runtime', () => {
    const core = manifest({
      name: '@weft/core',
      version: '0.2.0',
      peerDependencies: undefined,
      ...weft({ kind: 'core', provides: { services: ['runtime'] }, requires: undefined }),
    });
    expect(validatePackage('model-openai', core)).toMatchObject({
      coreVersions: '0.2.0',
      requires: { capabilities: [], services: [] },
    });
    expectCatalogueError(
      () => validatePackage('model-openai', { ...core, ...weft({ kind: 'core', provides: {} }) }),
      'weft.provides.services',
      /must include "runtime"/,
    );
  });

  it('refuses a Node.js or core range the plugins page cannot put in words', () => {
    expectCatalogueError(
      () => validatePackage('model-openai', manifest({ engines: { node: '~20.19.0' } })),
      'engines.node',
      /cannot put in words/,
    );
    expectCatalogueError(
      () =>
        validatePackage('model-openai', manifest({ peerDependencies: { '@weft/core': '0.1.x' } })),
      'peerDependencies["@weft/core"]',
      /cannot put in words/,
    );
    expectCatalogueError(
      () =>
        validatePackage(
          'model-openai',
          manifest({ peerDependencies: undefined, dependencies: { '@weft/core': '>=0.1 <0.3' } }),
        ),
      'dependencies["@weft/core"]',
      /cannot put in words/,
    );
  });

  it('treats absent provides and requires as empty', () => {
    const entry = validatePackage(
      'model-openai',
      manifest(weft({ provides: undefined, requires: undefined })),
    );
    expect(entry.provides).toEqual({ capabilities: [], services: [], executors: [], triggers: [] });
    expect(entry.requires).toEqual({ capabilities: [], services: ['runtime'] });
  });

  it('accepts executor and trigger names with parts the user chooses', () => {
    const entry = validatePackage(
      'model-openai',
      manifest(
        weft({
          provides: { executors: ['<plugin id>/<server>.<tool>'], triggers: ['chat/message'] },
        }),
      ),
    );
    expect(entry.provides.executors).toEqual(['<plugin id>/<server>.<tool>']);
    expect(entry.provides.triggers).toEqual(['chat/message']);
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
    ['keywords[1]', { keywords: ['ok', 3] }, /non-empty string/],
    ['weft', { weft: undefined }, /is missing/],
    ['weft', { weft: 'plugin' }, /must be an object/],
    ['weft.kind', weft({ kind: undefined }), /is missing/],
    ['weft.kind', weft({ kind: 'provider' }), /must be one of core, model-provider/],
    ['weft.displayName', weft({ displayName: undefined }), /is missing/],
    ['weft.guide', weft({ guide: undefined }), /is missing/],
    ['weft.guide', weft({ guide: 7 }), /must be a string/],
    ['weft.guide', weft({ guide: 'docs/guides/testing' }), /route of a docs page/],
    ['weft.guide', weft({ guide: 'https://example.com/docs/x/' }), /route of a docs page/],
    ['weft.guide', weft({ guide: '/docs/guides/testing.md' }), /route of a docs page/],
    ['engines', { engines: undefined }, /is missing/],
    ['engines.node', { engines: {} }, /is missing/],
    ['weft.runtimes', weft({ runtimes: undefined }), /is missing/],
    ['weft.runtimes', weft({ runtimes: [] }), /at least one runtime/],
    ['weft.runtimes[0]', weft({ runtimes: ['deno'] }), /must be one of node, browser, got "deno"/],
    ['weft.runtimes', weft({ runtimes: ['node', 'node'] }), /must not repeat/],
    [
      'weft.provides.capabilities[0]',
      weft({ provides: { capabilities: ['embeddings'] } }),
      /must be one of text-generation, got "embeddings"/,
    ],
    [
      'weft.requires.services[1]',
      weft({ requires: { services: ['postgresql', 'postgres'] } }),
      /must be one of runtime, memory, .*got "postgres"/,
    ],
    [
      'weft.requires.services[0]',
      weft({ requires: { services: ['runtime'] } }),
      /read from the dependency on @weft\/core/,
    ],
    ['weft.provides', weft({ provides: ['memory'] }), /must be an object/],
    ['weft.provides.executors', weft({ provides: { executors: 'reply' } }), /must be an array/],
    [
      'weft.provides.executors[0]',
      weft({ provides: { executors: ['reply'] } }),
      /<plugin id>\/<name>/,
    ],
    [
      'weft.provides.services',
      weft({ provides: { services: ['memory', 'memory'] } }),
      /must not repeat/,
    ],
    ['weft.provide', weft({ provide: {} }), /is not a known field/],
    ['weft.provides.capability', weft({ provides: { capability: [] } }), /is not a known field/],
  ])(
    'rejects an invalid %s, naming the field [claim:cg-catalogue-schema-refuses]',
    (field, overrides, problem) => {
      expectCatalogueError(
        () => validatePackage('model-openai', manifest(overrides)),
        field,
        problem,
      );
    },
  );

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
    guide: '/docs/getting-started/',
    provides: { capabilities: [], services: [], executors: [], triggers: [] },
    requires: { capabilities: [], services: [] },
    runtimes: ['node'],
    coreVersions: '1.0.0',
    nodeVersions: '>=20',
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

  it('reads every package folder, skips folders without package.json and sorts [claim:plugins-built-from-package-json]', async () => {
    await addPackage('model-openai', manifest());
    await addPackage(
      'core',
      manifest({
        name: '@weft/core',
        description: 'The Weft runtime.',
        weft: {
          kind: 'core',
          displayName: 'Core',
          guide: '/docs/getting-started/',
          provides: { services: ['runtime'] },
          runtimes: ['node'],
        },
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

describe('the first-party packages', () => {
  it('include the package.json the contributing guide shows, field for field', async () => {
    const siteDir = path.resolve(__dirname, '../..');
    const guide = await readFile(path.join(siteDir, 'docs', 'contributing-guide.md'), 'utf8');
    const section = guide.slice(guide.indexOf('### Adding a package to the plugins page'));
    const sample = JSON.parse(/```json\n([\s\S]*?)```/.exec(section)![1]!) as Record<
      string,
      unknown
    >;
    const directory = String(sample.name).replace('@weft/', '');
    const real = JSON.parse(
      await readFile(path.join(siteDir, 'packages', directory, 'package.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(Object.keys(sample)).toContain('weft');
    for (const [field, value] of Object.entries(sample)) {
      expect(value, `packages/${directory}/package.json: ${field}`).toEqual(real[field]);
    }
  });

  it('each name a guide that is a page of the docs', async () => {
    const siteDir = path.resolve(__dirname, '../..');
    const { entries, errors } = await readCatalogue(path.join(siteDir, 'packages'));
    expect(errors).toEqual([]);
    expect(entries.length).toBeGreaterThan(0);
    for (const { name, guide } of entries) {
      // The route names the file (a page with a `slug` would not; the build's link check still
      // fails on a route that is no page).
      const page = guide.replace(/^\/docs\//, 'docs/').replace(/\/$/, '');
      const files = [`${page}.md`, `${page}.mdx`, `${page}/index.md`, `${page}/index.mdx`];
      expect(
        files.some((file) => existsSync(path.join(siteDir, file))),
        `${name}'s guide ${guide} is none of ${files.join(', ')}`,
      ).toBe(true);
    }
  });

  it("are each tested in the repository: the unit suite runs test files of every card's folder [claim:plugins-every-package]", async () => {
    const siteDir = path.resolve(__dirname, '../..');
    const { entries } = await readCatalogue(path.join(siteDir, 'packages'));
    const { default: config } = await import('../../vitest.config');
    const projects = (config.test?.projects ?? []) as { test?: { include?: string[] } }[];
    const included = projects.flatMap((project) => project.test?.include ?? []);
    const run = globSync(included, { cwd: siteDir, ignore: ['**/node_modules/**'] });
    expect(entries.length).toBeGreaterThan(0);
    for (const { directory } of entries) {
      const tests = run.filter((file) => file.startsWith(`packages/${directory}/test/`));
      expect(tests.length, `the unit suite runs no test of packages/${directory}`).toBeGreaterThan(
        0,
      );
    }
  });
});
