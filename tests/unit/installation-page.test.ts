import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { formatZodSchema } from '@weft/core';
import semver from 'semver';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { parse as parseYaml } from 'yaml';
import { MEMORY_CHOICES, MODEL_CHOICES } from '../../packages/create-weft/src/choices';
import { createProject } from '../../packages/create-weft/src/create-project';
import {
  packageManagerFiles,
  packageManagerManifest,
} from '../../packages/create-weft/src/package-manager';
import { renderProject } from '../../packages/create-weft/src/templates';
import { weftPackagesFor } from '../../packages/create-weft/src/weft-packages';
import { MAJOR_SUITES } from '../../scripts/test-node-versions';
import { PACKAGES_ON_NPM } from '@weft-internal/docs-model/catalogue/model';
import { codeRows, readDoc } from './support/doc-tables';

// The tables of docs/installation.md, held to the repository: "What your project installs itself"
// and "The packages".

const root = path.resolve(__dirname, '../..');

async function coreDependencies(): Promise<Record<string, string>> {
  const manifest = JSON.parse(
    await readFile(path.join(root, 'packages/core/package.json'), 'utf8'),
  ) as { dependencies: Record<string, string> };
  return manifest.dependencies;
}

/** The install command the page's table gives for a package, such as `npm install zod@^4.1`. */
async function commandFor(name: string): Promise<string> {
  const page = await readFile(path.join(root, 'docs/installation.md'), 'utf8');
  const row = page.split('\n').find((line) => line.startsWith(`| \`${name}\``));
  const command = /`(npm install [^`]+)`\s*\|$/.exec(row ?? '')?.[1];
  if (!command) throw new Error(`docs/installation.md: no install command for ${name}`);
  return command;
}

const major = (range: string) => /(\d+)\./.exec(range)?.[1];

const PACKAGES = path.join(__dirname, '../../packages');

interface Manifest {
  name: string;
  private?: boolean;
  dependencies?: Record<string, string>;
}

function manifestOf(folder: string): Manifest {
  return JSON.parse(readFileSync(path.join(PACKAGES, folder, 'package.json'), 'utf8')) as Manifest;
}

const rows = codeRows(readDoc('installation.md'));
let work = '';
afterAll(async () => {
  if (work !== '') await rm(work, { recursive: true, force: true });
});

describe('what a project installs itself', () => {
  it.each(['zod', 'pino'])('installs %s in the major @weft/core depends on', async (name) => {
    const command = await commandFor(name);
    const range = new RegExp(`${name}@(\\S+)$`).exec(command)?.[1] ?? '';
    const core = (await coreDependencies())[name] ?? '';
    expect(major(range)).toBe(major(core));
  });

  it('takes zod 4 schemas and refuses one from zod 3', () => {
    expect(formatZodSchema(z.object({ name: z.string() }))).toContain('"name"');
    expect(() => formatZodSchema(z3.object({ name: z3.string() }) as never)).toThrow();
  });

  it('installs @weft/testing as a dev dependency', async () => {
    expect(await commandFor('@weft/testing')).toBe('npm install -D @weft/testing');
  });

  it.each([
    ['openai', 'sqlite', ['src/scripted-model.ts']],
    ['openai', 'memory', ['src/memory.ts', 'src/scripted-model.ts']],
    // src/model.ts imports it through src/scripted-model.ts.
    ['scripted', 'sqlite', ['src/scripted-model.ts']],
  ] as const)(
    'lists @weft/testing in the dependencies of a --model %s --memory %s project, whose src imports it from %j',
    async (model, memory, importers) => {
      const files = await renderProject({
        projectName: 'check',
        model,
        memory,
        dependencies: { '@weft/testing': '^0.1.0' },
        dependencyNote: '',
      });
      const importing = [...files]
        .filter(([file, text]) => file.startsWith('src/') && text.includes("from '@weft/testing'"))
        .map(([file]) => file)
        .sort();
      expect(importing).toEqual([...importers]);
      if (model === 'scripted') {
        expect(files.get('src/model.ts')).toContain("from './scripted-model.js'");
      }
      const manifest = JSON.parse(files.get('package.json') ?? '{}') as {
        dependencies: Record<string, string>;
        devDependencies: Record<string, string>;
      };
      expect(Object.keys(manifest.dependencies)).toContain('@weft/testing');
      expect(Object.keys(manifest.devDependencies)).not.toContain('@weft/testing');
    },
  );

  it.each(['zod', 'pino'])(
    'installs %s in the version range @weft/core depends on, which brings its own copy [claim:install-core-brings-deps] [claim:install-same-major]',
    (name) => {
      const range = manifestOf('core').dependencies?.[name];
      expect(range).toMatch(/^\^\d+\.\d+\.\d+$/);
      const command = rows.get(name)?.[1] ?? '';
      const asked = /@(\^\d+\.\d+)`$/.exec(command)?.[1];
      expect(asked, command).toBeDefined();
      expect(range?.startsWith(`${asked}.`)).toBe(true);
    },
  );

  it('generates a project whose scripted model and in-memory store import @weft/testing [claim:install-pino-generated] [claim:install-testing-dependencies]', async () => {
    work = await mkdtemp(path.join(tmpdir(), 'weft-installation-'));
    const directory = path.join(work, 'agent');
    await createProject({ directory, model: 'scripted', memory: 'memory', source: 'registry' });
    const manifest = JSON.parse(await readFile(path.join(directory, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    expect(manifest.dependencies).toHaveProperty('@weft/testing');
    expect(manifest.dependencies).toHaveProperty('pino');
    expect(manifest.devDependencies?.['@weft/testing']).toBeUndefined();
    for (const file of ['src/scripted-model.ts', 'src/memory.ts']) {
      expect(await readFile(path.join(directory, file), 'utf8')).toMatch(/from '@weft\/testing'/);
    }
    expect(await readFile(path.join(directory, 'src/agent.ts'), 'utf8')).toMatch(
      /import type \{[^}]*\bLogger\b[^}]*\} from 'pino'/,
    );
  });
});

describe('moving @weft/testing to devDependencies', () => {
  let work: string | undefined;
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('is one file to move: with a real model and SQLite, only src/scripted-model.ts and the tests import it [claim:install-testing-move]', async () => {
    work = await mkdtemp(path.join(tmpdir(), 'weft-installation-'));
    const directory = path.join(work, 'agent');
    await createProject({ directory, model: 'openai', memory: 'sqlite', source: 'registry' });
    const importers: string[] = [];
    for (const folder of ['src', 'test']) {
      for (const file of readdirSync(path.join(directory, folder))) {
        const text = await readFile(path.join(directory, folder, file), 'utf8');
        if (text.includes("from '@weft/testing'")) importers.push(`${folder}/${file}`);
      }
    }
    expect(importers.filter((file) => file.startsWith('src/'))).toEqual(['src/scripted-model.ts']);
    expect(await readFile(path.join(directory, 'test/agent.test.ts'), 'utf8')).toContain(
      "from '../src/scripted-model.js'",
    );
  });
});

describe('the packages table', () => {
  it('lists every published package of the repository in the packages table [claim:install-packages-table]', () => {
    const published = readdirSync(PACKAGES, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => manifestOf(entry.name))
      .filter((manifest) => manifest.private !== true)
      .map((manifest) => manifest.name);
    for (const name of published) {
      expect(rows.get(name)?.[1], `a row for ${name}`).toMatch(/^`npm (install|create) /);
    }
    expect(published.length).toBeGreaterThanOrEqual(8);
  });
});

describe('a project that depends on tarballs packed from a clone', () => {
  // Seen on 2026-11-30 with the packed @weft/core and @weft/model-openai: npm installs them;
  // pnpm 12 stops with ERR_PNPM_FETCH_404 and Yarn 1 with 'Couldn't find package "@weft/core"',
  // since both resolve model-openai's own dependency on @weft/core in the registry.
  it('installs with npm only, since the other Weft packages name @weft/core by version and nothing points it at vendor/ [claim:install-vendored-npm-only] [claim:gs-vendored-npm-only]', async () => {
    const vendored = new Set(
      MODEL_CHOICES.flatMap((model) =>
        MEMORY_CHOICES.flatMap((memory) => weftPackagesFor({ model, memory })),
      ),
    );
    vendored.delete('@weft/core');
    expect(vendored.size).toBeGreaterThanOrEqual(3);
    for (const name of vendored) {
      const range = manifestOf(name.replace(/^@weft\//, '')).dependencies?.['@weft/core'];
      // A registry version, which pnpm and Yarn look up there, not a file: or workspace: spec.
      expect({ name, range }).toEqual({ name, range: expect.stringMatching(/^\^?\d+\.\d+\.\d+$/) });
    }
    const files = await renderProject({
      projectName: 'check',
      model: 'openai',
      memory: 'sqlite',
      dependencies: { '@weft/core': 'file:vendor/weft-core-0.1.0.tgz' },
      dependencyNote: '',
    });
    const manifest = JSON.parse(files.get('package.json') ?? '{}') as Record<string, unknown>;
    // No override sends another manager to vendor/ for the packages' own @weft/core.
    for (const field of ['overrides', 'resolutions', 'pnpm'])
      expect(manifest).not.toHaveProperty(field);
    expect([...files.keys()]).not.toContain('pnpm-workspace.yaml');
  });
});

describe('the packages the tests run on every Node.js major', () => {
  /** The Weft packages the suites of test:node-versions install: tarball checks and the project. */
  function testedOnEveryMajor(): Set<string> {
    const [packages, project] = MAJOR_SUITES;
    const args = packages?.args ?? [];
    const excluded = args.filter((_arg, index) => args[index - 1] === '--exclude');
    const packFiles = readdirSync(path.join(root, 'tests/pack'))
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => `tests/pack/${file}`)
      .filter((file) => !excluded.includes(file));
    expect(packFiles.length).toBeGreaterThanOrEqual(3);
    const names = new Set<string>();
    for (const file of packFiles) {
      const text = readFileSync(path.join(root, file), 'utf8');
      for (const match of text.matchAll(/'(@weft\/[a-z-]+)'/g)) names.add(match[1] as string);
    }
    // The generated project: the choices tests/scaffold/clone.test.ts passes to create-agent.
    const clone = readFileSync(path.join(root, project?.args.at(-1) ?? ''), 'utf8');
    const model = /'--model',\s*'(\w+)'/.exec(clone)?.[1];
    const memory = /'--memory',\s*'(\w+)'/.exec(clone)?.[1];
    expect({ model, memory }).toEqual({ model: 'openai', memory: 'memory' });
    for (const name of weftPackagesFor({ model: 'openai', memory: 'memory' })) names.add(name);
    return names;
  }

  it('are every published package, those the page names first and the others in one more project [claim:install-node-tested] [claim:install-node-tested-packages]', () => {
    const tested = testedOnEveryMajor();
    const published = readdirSync(PACKAGES, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => manifestOf(entry.name))
      .filter((manifest) => manifest.private !== true && manifest.name.startsWith('@weft/'))
      .map((manifest) => manifest.name);
    // create-weft runs from the clone's sources on every major (clone.test.ts), not packed.
    expect(published.filter((name) => !tested.has(name))).toEqual([]);
    const page = readDoc('installation.md');
    const sentence =
      /The other packages \(([^)]*)\) are installed packed into one more project, where each does its job once/.exec(
        page,
      )?.[1] ?? '';
    const named = [...sentence.matchAll(/`(@weft\/[a-z-]+)`/g)].map((match) => match[1]).sort();
    // The ones pack.test.ts, the CommonJS example, the mcp-docs tests and the project run; the
    // rest is tests/pack/packages-run.test.ts's.
    const runFirst = [
      '@weft/core',
      '@weft/mcp-docs',
      '@weft/model-openai',
      '@weft/plugin-chat',
      '@weft/testing',
    ];
    for (const name of runFirst) expect(page).toContain(`\`${name}\``);
    expect(named).toEqual(published.filter((name) => !runFirst.includes(name)).sort());
  });
});

describe('packing Weft into a project you already have', () => {
  it('names the Weft packages each one depends on, which must be packed with it [claim:install-pack-dependencies]', () => {
    const manifests = readdirSync(PACKAGES, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map(
        (entry) =>
          manifestOf(entry.name) as Manifest & { peerDependencies?: Record<string, string> },
      )
      .filter((manifest) => manifest.private !== true && manifest.name.startsWith('@weft/'));
    const beyondCore: Record<string, string[]> = {};
    for (const manifest of manifests) {
      if (manifest.name === '@weft/core') continue;
      const weft = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }).filter(
        (name) => name.startsWith('@weft/'),
      );
      // "@weft/core for every one".
      expect({ name: manifest.name, core: weft.includes('@weft/core') }).toEqual({
        name: manifest.name,
        core: true,
      });
      const others = weft.filter((name) => name !== '@weft/core');
      if (others.length > 0) beyondCore[manifest.name] = others;
    }
    expect(beyondCore).toEqual({ '@weft/plugin-websocket': ['@weft/plugin-chat'] });
    expect(readDoc('installation.md')).toContain(
      '`@weft/core` for every one and `@weft/plugin-chat` for `@weft/plugin-websocket`',
    );
  });
});

/** An entry of package-lock.json's `packages`, with what the checks below read. */
interface LockEntry {
  link?: boolean;
  resolved?: string;
  hasInstallScript?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  engines?: { node?: string } | string[];
  dev?: boolean;
  optional?: boolean;
}

/**
 * The packages a user's install of a published package brings, found in the repository's
 * package-lock.json as Node.js resolves them (the nearest node_modules up the tree): its
 * dependencies, optional dependencies and required peers, transitively; dev dependencies and
 * optional peers, which npm leaves out, are not followed.
 */
function installedWith(lock: Record<string, LockEntry>, workspace: string): Set<string> {
  const locate = (name: string, from: string): string | undefined => {
    for (let dir = from; ;) {
      const candidate = dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
      const entry = lock[candidate];
      if (entry) return entry.link ? entry.resolved : candidate;
      if (dir === '') return undefined;
      const nested = dir.lastIndexOf('/node_modules/');
      dir = nested >= 0 ? dir.slice(0, nested) : '';
    }
  };
  const seen = new Set<string>();
  const queue = [workspace];
  for (let location = queue.shift(); location !== undefined; location = queue.shift()) {
    const entry = lock[location] ?? {};
    const optionalPeers = Object.entries(entry.peerDependenciesMeta ?? {})
      .filter(([, meta]) => meta.optional === true)
      .map(([name]) => name);
    const names = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}).filter((name) => !optionalPeers.includes(name)),
    ];
    for (const name of names) {
      const found = locate(name, location);
      if (found === undefined || seen.has(found)) continue;
      seen.add(found);
      queue.push(found);
    }
  }
  return seen;
}

describe("the SQLite driver's install script", () => {
  it('is the only install script any published package brings, and it fetches or compiles the native module [claim:install-sqlite-install-script]', () => {
    const lock = (
      JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
        packages: Record<string, LockEntry>;
      }
    ).packages;
    const scripted: Record<string, string[]> = {};
    for (const entry of readdirSync(PACKAGES, { withFileTypes: true })) {
      if (!entry.isDirectory() || manifestOf(entry.name).private === true) continue;
      const installed = installedWith(lock, `packages/${entry.name}`);
      expect(installed.size, entry.name).toBeGreaterThan(0);
      const names = [...installed]
        .filter((location) => lock[location]?.hasInstallScript === true)
        .map((location) => location.slice(location.lastIndexOf('node_modules/') + 13))
        .sort();
      if (names.length > 0) scripted[manifestOf(entry.name).name] = names;
    }
    expect(scripted).toEqual({ '@weft/memory-sqlite': ['better-sqlite3'] });
    const driver = JSON.parse(
      readFileSync(path.join(root, 'node_modules/better-sqlite3/package.json'), 'utf8'),
    ) as { scripts: Record<string, string> };
    expect(driver.scripts.install).toMatch(/prebuild-install/);
    expect(driver.scripts.install).toMatch(/node-gyp rebuild/);
  });

  it('is allowed in the package.json of a --memory sqlite project, as the page shows, and in its pnpm-workspace.yaml [claim:install-sqlite-generated-allows] [claim:trouble-generated-allows-sqlite]', async () => {
    const page = readDoc('installation.md');
    const shown = /`("allowScripts": \{[^`]*\})`/.exec(page)?.[1];
    expect(shown).toBeDefined();
    const asked = (JSON.parse(`{${shown}}`) as { allowScripts: Record<string, boolean> })
      .allowScripts;
    expect(asked).toEqual({ 'better-sqlite3': true });
    const manifestFor = async (memory: 'sqlite' | 'memory') => {
      const files = await renderProject({
        projectName: 'check',
        model: 'openai',
        memory,
        dependencies: { '@weft/memory-sqlite': '^0.1.0' },
        dependencyNote: '',
      });
      return JSON.parse(files.get('package.json') ?? '{}') as {
        allowScripts?: Record<string, boolean>;
      };
    };
    expect((await manifestFor('sqlite')).allowScripts).toMatchObject(asked);
    expect((await manifestFor('memory')).allowScripts).not.toHaveProperty('better-sqlite3');
    const workspace = packageManagerFiles('pnpm', { nativeSqlite: true }).get(
      'pnpm-workspace.yaml',
    );
    const settings = parseYaml(workspace ?? '') as {
      allowBuilds: Record<string, boolean>;
      onlyBuiltDependencies: string[];
    };
    expect(settings.allowBuilds['better-sqlite3']).toBe(true);
    expect(settings.onlyBuiltDependencies).toContain('better-sqlite3');
    // A pnpm before 10.5 reads the list from package.json's `pnpm` field instead.
    expect(
      packageManagerManifest('pnpm', { nativeSqlite: true, version: '9.15.0' }).pnpm
        ?.onlyBuiltDependencies,
    ).toContain('better-sqlite3');
  });
});

describe("@weft/testing's browser build", () => {
  it('leaves out only what the page names as Node-only [claim:install-browser-testing-node-only]', async () => {
    const node = await import('../../packages/testing/src/index');
    const browser = await import('../../packages/testing/src/browser');
    const missing = Object.keys(node)
      .filter((name) => !Object.keys(browser).includes(name))
      .sort();
    expect(missing.length).toBeGreaterThan(0);
    const sentence =
      /^(.*) from `@weft\/testing` (?:is|are) for Node\.js test runners and (?:is|are) not in its browser build\./m.exec(
        readDoc('installation.md'),
      )?.[1] ?? '';
    const named = [...sentence.matchAll(/`([^`]+)`/g)].map((match) => match[1]).sort();
    expect(named).toEqual(missing);
  });
});

describe('a project made with npm, installed with pnpm once Weft is published', () => {
  it('has no pnpm-workspace.yaml, which create-weft writes only for pnpm, allowing the builds of esbuild (tsx, vitest) and better-sqlite3 [claim:install-pnpm-workspace-builds]', async () => {
    expect([...packageManagerFiles('npm', { nativeSqlite: true }).keys()]).toEqual([]);
    const files = await renderProject({
      projectName: 'check',
      model: 'openai',
      memory: 'sqlite',
      dependencies: {},
      dependencyNote: '',
    });
    expect([...files.keys()]).not.toContain('pnpm-workspace.yaml');
    const manifest = JSON.parse(files.get('package.json') ?? '{}') as {
      devDependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.devDependencies)).toEqual(
      expect.arrayContaining(['tsx', 'vitest']),
    );
    const lock = (
      JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
        packages: Record<string, LockEntry>;
      }
    ).packages;
    for (const tool of ['tsx', 'vitest']) {
      const brought = [...installedWith(lock, `node_modules/${tool}`)].map((location) =>
        location.slice(location.lastIndexOf('node_modules/') + 13),
      );
      expect({ tool, esbuild: brought.includes('esbuild') }).toEqual({ tool, esbuild: true });
    }
    const workspace = parseYaml(
      packageManagerFiles('pnpm', { nativeSqlite: true }).get('pnpm-workspace.yaml') ?? '',
    ) as { allowBuilds: Record<string, boolean> };
    expect(workspace.allowBuilds).toEqual({ esbuild: true, 'better-sqlite3': true });
    // Only a pnpm that reads its settings from the file gets one: 10.5 and later, as the page says.
    expect(readDoc('installation.md')).toContain(
      'like the one create-weft writes when pnpm 10.5 or later runs it',
    );
    const written = (version: string) => [
      ...packageManagerFiles('pnpm', { nativeSqlite: true, version }).keys(),
    ];
    expect(written('10.5.0')).toEqual(['pnpm-workspace.yaml']);
    expect(written('10.4.1')).toEqual([]);
  });
});

describe("the clone's npm ci on Node.js 20 and 22.12", () => {
  it('warns EBADENGINE only about development tools that ask for a later Node.js, on 20 and 22.12 alone, none of them installed with a Weft package [claim:install-node20-ebadengine]', () => {
    const lock = (
      JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
        packages: Record<string, LockEntry>;
      }
    ).packages;
    const oldest = `${readFileSync(path.join(root, '.nvmrc'), 'utf8').trim()}.0`;
    // npm warns about a package whose engines field refuses this Node.js; an optional one it
    // skips without a word.
    const refusedOn = (version: string) =>
      Object.entries(lock)
        .filter(([location, entry]) => {
          const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
          return location !== '' && range !== undefined && !semver.satisfies(version, range);
        })
        .filter(([, entry]) => entry.optional !== true);
    const refusing = [...refusedOn(oldest), ...refusedOn('22.12.0')];
    // The page names Node.js 20 and 22.12: each gets the warning, and no later version does.
    expect(refusedOn(oldest).length).toBeGreaterThan(0);
    expect(refusedOn('22.12.0').length).toBeGreaterThan(0);
    for (const later of ['22.13.0', '24.0.0', '26.0.0'])
      expect({ later, refusing: refusedOn(later) }).toEqual({ later, refusing: [] });
    // Only a dev dependency of the clone: the install goes on (no engine-strict), and no user
    // of a Weft package gets it.
    expect(refusing.filter(([, entry]) => entry.dev !== true)).toEqual([]);
    const npmrc = path.join(root, '.npmrc');
    const settings = existsSync(npmrc) ? readFileSync(npmrc, 'utf8') : '';
    expect(settings).not.toMatch(/^\s*engine-strict\s*=\s*true/m);
    for (const entry of readdirSync(PACKAGES, { withFileTypes: true })) {
      if (!entry.isDirectory() || manifestOf(entry.name).private === true) continue;
      const installed = installedWith(lock, `packages/${entry.name}`);
      // The route trigger's optional peers, which the user installs beside @weft/core.
      for (const peer of ['node_modules/express', 'node_modules/cors']) {
        installed.add(peer);
        for (const found of installedWith(lock, peer)) installed.add(found);
      }
      expect(
        refusing.filter(([location]) => installed.has(location)).map(([location]) => location),
        entry.name,
      ).toEqual([]);
    }
  });
});

describe('install lines on the other pages', () => {
  const SENT_TO_CLONE =
    'Until the Weft packages are published to the npm registry, that line cannot install them: install them from a clone, as [Installation](../installation.md#today-from-a-clone) shows.';
  /** Every page but Installation whose code blocks install a Weft package from the registry. */
  const pagesWithInstallLines = readdirSync(path.join(root, 'docs'), {
    recursive: true,
    encoding: 'utf8',
  })
    .filter((file) => file.endsWith('.md') && file !== 'installation.md')
    .filter((file) =>
      /^npm install (-D )?[^\n]*@weft\//m.test(readFileSync(path.join(root, 'docs', file), 'utf8')),
    );

  it('finds the pages that show such a line', () => {
    expect(pagesWithInstallLines).toEqual(
      expect.arrayContaining([
        path.join('building-plugins', 'http-chat.md'),
        path.join('building-plugins', 'mcp-tools.md'),
        path.join('building-plugins', 'websocket-chat.md'),
      ]),
    );
  });

  it('send the reader to a clone right after the line while the packages are not on the registry [claim:httpchat-install-from-clone] [claim:wsdoc-install-from-clone] [claim:mcpdoc-install-from-clone]', () => {
    // The first release sets PACKAGES_ON_NPM (libs/docs-model/catalogue/model.ts): these
    // sentences go in the same change.
    expect(PACKAGES_ON_NPM).toBe(false);
    expect(readDoc('installation.md')).toMatch(/^## Today: from a clone$/m);
    for (const file of pagesWithInstallLines) {
      const page = readFileSync(path.join(root, 'docs', file), 'utf8');
      const afterBlock =
        /^npm install (-D )?[^\n]*@weft\/[^\n]*\n```\n\n([^\n]*)/m.exec(page)?.[2] ?? '';
      expect(afterBlock.startsWith(SENT_TO_CLONE), `docs/${file}: after its install line`).toBe(
        true,
      );
    }
  });
});
