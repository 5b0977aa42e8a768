/**
 * Packs @weft/core as npm would publish it, installs the tarball into a fresh project, and
 * checks that the package works from ESM, from CommonJS and from TypeScript: every public name
 * of src/index.ts is exported, the classes are classes, and a tiny runtime starts and runs a
 * task under both module systems.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PackedPackage } from '../../packages/create-weft/src/weft-packages';
import { EXPECTED_NODE_MAJOR_ENV } from '../../tooling/node-versions';
import { packedPackages } from '../../tooling/packed-packages';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');
const coreDir = path.join(root, 'packages/core');
const TIMEOUT = 120_000;

/** The names src/index.ts exports, split into values and type-only names. */
function publicNames(source: string): { values: string[]; types: string[] } {
  const file = ts.createSourceFile('index.ts', source, ts.ScriptTarget.Latest);
  const values: string[] = [];
  const types: string[] = [];
  for (const statement of file.statements) {
    if (!ts.isExportDeclaration(statement) || !statement.exportClause) continue;
    if (!ts.isNamedExports(statement.exportClause)) continue;
    for (const element of statement.exportClause.elements) {
      const typeOnly = statement.isTypeOnly || element.isTypeOnly;
      (typeOnly ? types : values).push(element.name.text);
    }
  }
  return { values: values.sort(), types: types.sort() };
}

/**
 * A script that loads the package the given way, reports which names are missing or extra and
 * which value kinds they have, then runs a task through a tiny runtime; it prints JSON.
 */
function checkScript(kind: 'esm' | 'cjs', values: readonly string[]): string {
  const load =
    kind === 'esm'
      ? "import * as core from '@weft/core';\nimport { z } from 'zod';\nimport { createRequire } from 'node:module';\nconst other = createRequire(import.meta.url)('@weft/core');"
      : "const core = require('@weft/core');\nconst { z } = require('zod');\nconst other = undefined;";
  return `${load}
const expected = ${JSON.stringify(values)};
const { Runtime, Plugin, ModelProvider, MemoryProvider, defineCapability, TEXT_GENERATION_CAPABILITY } = core;
const exported = Object.keys(core).filter((name) => name !== 'default' && name !== '__esModule' && name !== 'module.exports');
const kinds = Object.fromEntries(
  expected.map((name) => {
    const value = core[name];
    const isClass = typeof value === 'function' && /^class\\b/.test(Function.prototype.toString.call(value));
    return [name, isClass ? 'class' : value === undefined ? 'undefined' : typeof value];
  }),
);

class EchoModel extends (other?.ModelProvider ?? ModelProvider) {
  id = 'echo-model';
  capabilities = [
    {
      id: TEXT_GENERATION_CAPABILITY,
      run: async (_input, request) => {
        if (request.purpose === 'plan') return { text: JSON.stringify({ steps: [{ pluginId: 'greeter', action: 'greet' }] }) };
        if (request.purpose === 'review') return { text: '{"type":"continue"}' };
        return { text: 'Hello from the model' };
      },
    },
  ];
}

class NoMemory extends MemoryProvider {
  id = 'no-memory';
  async store(memory) { return { ...memory, id: 'm', createdAt: new Date() }; }
  async update() { throw new Error('no memories'); }
  async query() { return []; }
  async remove() { return false; }
  async clear() { return 0; }
}

class Greeter extends Plugin {
  id = 'greeter';
  description = 'Greets.';
  executors = [
    {
      action: 'greet',
      description: 'Greets the user.',
      execute: async (_task, context) => ({ success: true, data: { text: await context.models.generateText('Say hello') } }),
    },
  ];
}

const sentiment = defineCapability({ id: 'sentiment', description: 'Scores a text.', input: z.object({ text: z.string() }), output: z.object({ score: z.number() }) });
const runtime = await Runtime.init({
  models: [new EchoModel()],
  memory: new NoMemory(),
  plugins: [new Greeter()],
  options: { handleSignals: false },
});
await runtime.start();
const task = await runtime.dispatch({ pluginId: 'greeter', triggerId: 'manual', space: 'pack-check', message: 'hi' });
await runtime.stop();
console.log(JSON.stringify({
  missing: expected.filter((name) => core[name] === undefined),
  extra: exported.filter((name) => !expected.includes(name)),
  kinds,
  textGeneration: TEXT_GENERATION_CAPABILITY,
  capabilityId: sentiment.id,
  crossBuildProvider: other !== undefined && other.ModelProvider !== ModelProvider,
  status: task.status,
  chain: task.chain.map((item) => [item.type, item.pluginId, item.action, item.data ?? null]),
  runtimeStatus: runtime.status,
}));
`;
}

/** A TypeScript consumer that imports every public name, for tsc under the given module kind. */
function typeScript(kind: 'esm' | 'cjs', names: { values: string[]; types: string[] }): string {
  const values = names.values.join(', ');
  const types = names.types.join(', ');
  const header =
    kind === 'esm'
      ? `import { ${values} } from '@weft/core';\n`
      : `import core = require('@weft/core');\nconst { ${values} } = core;\n`;
  return `${header}import type { ${types} } from '@weft/core';

export const values = [${values}] as const;
export type Types = [${names.types.map((name) => `${name}${GENERIC_ARGUMENTS[name] ?? ''}`).join(', ')}];
// Route handlers get the core's own request and response types, not any.
export const handler: TriggerRoute['handler'] = (request: RouteRequest, response: RouteResponse) =>
  response.json({ path: request.path });
export const text: 'text-generation' = TEXT_GENERATION_CAPABILITY;
`;
}

/** Type arguments for the public generic types whose parameters have no default. */
/**
 * Type-checks `files` of a consumer project as a user's strict project would, declarations of
 * the installed packages included (skipLibCheck off); answers tsc's report, empty when clean.
 */
async function typeCheckStrictly(
  project: string,
  config: string,
  files: string[],
): Promise<string> {
  await writeFile(
    path.join(project, config),
    JSON.stringify({
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: ['node'],
      },
      files,
    }),
  );
  const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
  return run(process.execPath, [tsc, '-p', config], { cwd: project }).then(
    () => '',
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
}

const GENERIC_ARGUMENTS: Record<string, string> = { Resolvable: '<string>' };

describe('the packed @weft/core tarball', () => {
  let work = '';
  let project = '';
  let names: { values: string[]; types: string[] };
  let packed: PackedPackage;

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'weft-pack-'));
    project = path.join(work, 'project');
    names = publicNames(await readFile(path.join(coreDir, 'src/index.ts'), 'utf8'));

    const [tarball] = await packedPackages(root, ['@weft/core'], work);
    packed = tarball as PackedPackage;

    await mkdir(project);
    await writeFile(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'weft-pack-check', version: '1.0.0', private: true }),
    );
    const coreZodRange = (
      JSON.parse(await readFile(path.join(coreDir, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
      }
    ).dependencies.zod;
    // Everything the tarball depends on is in the npm cache since the workspace install.
    const typesNode = JSON.parse(
      await readFile(path.join(root, 'node_modules/@types/node/package.json'), 'utf8'),
    ) as { version: string };
    await run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        path.join(work, packed.filename),
        `@types/node@${typesNode.version}`,
        // The check defines a capability, so it installs zod itself, as the installation page
        // tells a project whose code writes schemas to, in the range the core uses.
        `zod@${coreZodRange}`,
      ],
      { cwd: project },
    );
  }, TIMEOUT);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it(
    'contains the builds and declarations that package.json exports point at [claim:install-packages-esm-cjs] [claim:core-readme-esm-cjs-types]',
    async () => {
      const manifest = JSON.parse(await readFile(path.join(coreDir, 'package.json'), 'utf8')) as {
        main: string;
        module: string;
        types: string;
        exports: Record<string, Record<string, Record<string, string>>>;
      };
      const files = new Set(packed.files.map((file) => file.path));
      const dot = manifest.exports['.'] as Record<string, Record<string, string>>;
      const targets = [
        manifest.main,
        manifest.module,
        manifest.types,
        dot.import?.types,
        dot.import?.default,
        dot.require?.types,
        dot.require?.default,
      ];
      expect(targets).toEqual([
        './dist/index.cjs',
        './dist/index.js',
        './dist/index.d.ts',
        './dist/index.d.ts',
        './dist/index.js',
        './dist/index.d.cts',
        './dist/index.cjs',
      ]);
      for (const target of targets) expect(files).toContain((target as string).slice(2));
      expect(files).toContain('package.json');
      expect([...files].filter((file) => file.includes('test/') || file.endsWith('.tgz'))).toEqual(
        [],
      );
    },
    TIMEOUT,
  );

  it.each(['esm', 'cjs'] as const)(
    'exports every public name and runs a task when loaded as %s',
    async (kind) => {
      const script = path.join(project, kind === 'esm' ? 'check.mjs' : 'check.cjs');
      const body = checkScript(kind, names.values);
      // CommonJS has no top-level await: wrap the script in an async function.
      await writeFile(
        script,
        kind === 'esm'
          ? body
          : `(async () => {\n${body}\n})().catch((error) => { console.error(error); process.exit(1); });\n`,
      );
      const { stdout } = await run(process.execPath, [script], {
        cwd: project,
        env: { ...process.env, WEFT_LOG_LEVEL: 'silent' },
      });
      const report = JSON.parse(stdout) as {
        missing: string[];
        extra: string[];
        kinds: Record<string, string>;
        textGeneration: string;
        capabilityId: string;
        crossBuildProvider: boolean;
        status: string;
        chain: unknown[];
        runtimeStatus: string;
      };
      expect(report.missing).toEqual([]);
      expect(report.extra).toEqual([]);
      for (const [name, valueKind] of Object.entries(report.kinds)) {
        // Constants (capability ids, limits) are plain values; other capitalised names are classes.
        const wanted = /^[A-Z]\w*Schema$/.test(name)
          ? /^object$/
          : /^[A-Z][A-Z_]+$/.test(name)
            ? /^(string|number)$/
            : /^[A-Z]/.test(name)
              ? /^class$/
              : /^function$/;
        expect(`${name}: ${valueKind}`).toMatch(new RegExp(`^${name}: ${wanted.source.slice(1)}`));
      }
      expect(report.textGeneration).toBe('text-generation');
      expect(report.capabilityId).toBe('sentiment');
      // Under ESM the model provider comes from the CommonJS build: both builds work together.
      expect(report.crossBuildProvider).toBe(kind === 'esm');
      expect(report.status).toBe('completed');
      expect(report.chain).toEqual([
        ['trigger', 'greeter', 'manual', null],
        ['result', 'greeter', 'greet', { text: 'Hello from the model' }],
      ]);
      expect(report.runtimeStatus).toBe('stopped');
    },
    TIMEOUT,
  );

  // TypeScript's answer does not depend on the Node.js that runs it: test:node-versions leaves
  // this to the machine's own run.
  it.skipIf(process.env[EXPECTED_NODE_MAJOR_ENV] !== undefined)(
    'type-checks a TypeScript consumer of every public name, from ESM and CommonJS [claim:install-cts] [claim:core-readme-esm-cjs-types]',
    async () => {
      expect(names.values.length + names.types.length).toBeGreaterThan(40);
      await writeFile(path.join(project, 'consumer.mts'), typeScript('esm', names));
      await writeFile(path.join(project, 'consumer.cts'), typeScript('cjs', names));
      expect(
        await typeCheckStrictly(project, 'tsconfig.json', ['consumer.mts', 'consumer.cts']),
      ).toBe('');
    },
    TIMEOUT,
  );

  // Last: it installs express and its types into the project the tests above share.
  it.skipIf(process.env[EXPECTED_NODE_MAJOR_ENV] !== undefined)(
    "declares @weft/core/node with express's types, an optional peer, and type-checks a consumer with skipLibCheck off once they are installed [claim:install-types-express]",
    async () => {
      const installed = path.join(project, 'node_modules/@weft/core');
      const manifest = JSON.parse(await readFile(path.join(installed, 'package.json'), 'utf8')) as {
        peerDependencies: Record<string, string>;
        peerDependenciesMeta: Record<string, { optional?: boolean }>;
      };
      expect(manifest.peerDependenciesMeta['@types/express']?.optional).toBe(true);
      // Without these declarations, TypeScript has no types for this import: TS7016 where express
      // is installed, TS2307 where it is not.
      expect(await readFile(path.join(installed, 'dist/node.d.ts'), 'utf8')).toMatch(
        /^import \{[^}]*\} from 'express';$/m,
      );
      // The versions the core's own development install resolved (express 5; the root's
      // node_modules hold express 4 for the site's tooling).
      const coreRequire = createRequire(path.join(coreDir, 'package.json'));
      const versionOf = async (name: string) =>
        (
          JSON.parse(await readFile(coreRequire.resolve(`${name}/package.json`), 'utf8')) as {
            version: string;
          }
        ).version;
      await run(
        'npm',
        [
          'install',
          '--no-audit',
          '--no-fund',
          '--prefer-offline',
          `express@${await versionOf('express')}`,
          `@types/express@${await versionOf('@types/express')}`,
        ],
        { cwd: project },
      );
      expect(manifest.peerDependencies['@types/express']).toBe(
        JSON.parse(await readFile(path.join(coreDir, 'package.json'), 'utf8')).peerDependencies[
          '@types/express'
        ],
      );
      await writeFile(
        path.join(project, 'server.mts'),
        "import { serverOf, ServerManager } from '@weft/core/node';\nexport const parts = [serverOf, ServerManager] as const;\nexport const use = (manager: ServerManager) => manager.app.use;\n",
      );
      expect(await typeCheckStrictly(project, 'tsconfig.server.json', ['server.mts'])).toBe('');
    },
    TIMEOUT,
  );
});
