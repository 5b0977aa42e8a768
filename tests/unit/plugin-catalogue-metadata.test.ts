/**
 * The plugins page's claims about each package, checked against the package's code: what its
 * package.json's `weft` field says it provides and requires (see "Catalogue metadata" in
 * docs/contributing-guide.md). Capabilities and executors are checked on instances; services by
 * what the code exports or depends on. Every service id has a check here, so a new one cannot be
 * added to the catalogue's list without saying how a package's claim to it is verified.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import * as core from '@weft/core';
import { describe, expect, it } from 'vitest';
import {
  CAPABILITY_IDS,
  SERVICE_IDS,
  readCatalogue,
  type CatalogueEntry,
  type ServiceId,
} from '@weft-internal/docs-model/catalogue/catalogue';

const packagesDir = path.resolve(__dirname, '../../packages');
const { entries, errors } = await readCatalogue(packagesDir);

/** Every .ts file under the package's src, as one text. */
function sourceOf(entry: CatalogueEntry): string {
  const dir = path.join(packagesDir, entry.directory, 'src');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => readFileSync(path.join(dir, file), 'utf8'))
    .join('\n');
}

function dependsOn(entry: CatalogueEntry, dependency: string): boolean {
  const manifest = JSON.parse(
    readFileSync(path.join(packagesDir, entry.directory, 'package.json'), 'utf8'),
  ) as { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
  return dependency in { ...manifest.dependencies, ...manifest.peerDependencies };
}

async function exportsOf(entry: CatalogueEntry): Promise<Record<string, unknown>> {
  return (await import(entry.name)) as Record<string, unknown>;
}

/** The exported classes that extend the given base class. */
async function subclassesOf(
  entry: CatalogueEntry,
  base: abstract new (...args: never[]) => unknown,
) {
  return Object.values(await exportsOf(entry)).filter(
    (value) => typeof value === 'function' && value.prototype instanceof base,
  );
}

/** The exported classes whose instances have all of these methods (an interface, not a class). */
async function implementersOf(entry: CatalogueEntry, methods: readonly string[]) {
  return Object.values(await exportsOf(entry)).filter(
    (value) =>
      typeof value === 'function' &&
      methods.every(
        (method) => typeof (value.prototype as Record<string, unknown>)?.[method] === 'function',
      ),
  );
}

/** Text the package's code writes when it uses the text model (directly or through getObject). */
const USES_TEXT_MODEL = /\bgetObject\(|\.generateText\(|TEXT_GENERATION_CAPABILITY/;

/**
 * How the code bears out a package's claim to provide a service (true when it does). Each check
 * also runs on every package that does not claim the service, where it must be false: the list
 * of providers is then complete as well as right.
 */
const PROVIDES: Record<ServiceId, (entry: CatalogueEntry) => Promise<boolean> | boolean> = {
  runtime: async (entry) =>
    (await exportsOf(entry)).Runtime === core.Runtime && entry.name === '@weft/core',
  // The server is the core's `node` subpath, which the runtime loads for route triggers.
  'http-server': async (entry) =>
    entry.name === '@weft/core' &&
    typeof (await import('@weft/core/node')).ServerManager === 'function',
  memory: async (entry) => (await subclassesOf(entry, core.MemoryProvider)).length > 0,
  coordination: async (entry) =>
    entry.name !== '@weft/core' &&
    (await implementersOf(entry, ['init', 'admit', 'acquire', 'release', 'shutdown'])).length > 0,
  'mcp-server': (entry) => /from '@modelcontextprotocol\/sdk\/server\//.test(sourceOf(entry)),
  postgresql: () => false, // a server outside every package
  'openai-compatible-api': () => false, // an API outside every package
};

/**
 * Whether the package's exports include a part a Weft runtime is given (a plugin, a model or
 * memory provider, a coordinator): a package that loads core only for its other parts, such as
 * its error class, runs without a runtime (`weft.standalone`).
 */
async function pluggedIntoRuntime(entry: CatalogueEntry): Promise<boolean> {
  for (const base of [core.Plugin, core.ModelProvider, core.MemoryProvider]) {
    if ((await subclassesOf(entry, base)).length > 0) return true;
  }
  return (
    (await implementersOf(entry, ['init', 'admit', 'acquire', 'release', 'shutdown'])).length > 0
  );
}

/** How the code bears out a package's claim to require a service. */
const REQUIRES: Record<
  Exclude<ServiceId, 'runtime'>,
  (entry: CatalogueEntry) => Promise<boolean> | boolean
> = {
  memory: (entry) =>
    entry.name === '@weft/core' && /\bmemory: MemoryProvider;/.test(sourceOf(entry)),
  'http-server': async (entry) => {
    const plugins = await subclassesOf(entry, core.Plugin);
    return plugins.length > 0 && /type: 'route'/.test(sourceOf(entry));
  },
  'mcp-server': (entry) => /from '@modelcontextprotocol\/sdk\/client\//.test(sourceOf(entry)),
  postgresql: (entry) => dependsOn(entry, 'pg'),
  'openai-compatible-api': (entry) => /\/chat\/completions/.test(sourceOf(entry)),
  coordination: () => false, // core takes a coordinator as an option; nothing needs one
};

/** An instance of each package's model providers, to read the capabilities it registers. */
const MODEL_PROVIDERS: Record<string, () => Promise<core.ModelProvider[]>> = {
  '@weft/model-openai': async () => {
    const { OpenAIModelProvider } = await import('@weft/model-openai');
    return [
      new OpenAIModelProvider({
        baseUrl: 'http://127.0.0.1:9/v1',
        model: 'test-model',
        apiKey: 'unused',
      }),
    ];
  },
  '@weft/testing': async () => {
    const { ScriptedModelProvider } = await import('@weft/testing');
    return [new ScriptedModelProvider()];
  },
};

/** An instance of each package's plugins, to read the executors and triggers it adds. */
const PLUGINS: Record<string, () => Promise<core.Plugin[]>> = {
  '@weft/plugin-chat': async () => {
    const { ChatPlugin } = await import('@weft/plugin-chat');
    return [new ChatPlugin()];
  },
  '@weft/plugin-websocket': async () => {
    const { WebSocketPlugin } = await import('@weft/plugin-websocket');
    return [new WebSocketPlugin()];
  },
};

describe('the catalogue metadata of the first-party packages', () => {
  it('is valid for every package [claim:plugins-built-from-package-json]', () => {
    expect(errors.map((error) => error.message)).toEqual([]);
    expect(entries.length).toBeGreaterThanOrEqual(10);
  });

  it('lists as capability ids exactly the ids @weft/core exports as *_CAPABILITY constants', () => {
    const coreIds = Object.entries(core)
      .filter(([name, value]) => name.endsWith('_CAPABILITY') && typeof value === 'string')
      .map(([, value]) => value);
    expect(coreIds.length).toBeGreaterThan(0);
    expect([...CAPABILITY_IDS].sort()).toEqual(coreIds.sort());
  });

  it.each(entries.map((entry) => [entry.name, entry] as const))(
    '%s provides the capabilities its model providers register, and no others [claim:plugins-card-facts]',
    async (name, entry) => {
      const providers = (await MODEL_PROVIDERS[name]?.()) ?? [];
      const registered = [
        ...new Set(
          providers.flatMap((provider) => provider.capabilities.map((capability) => capability.id)),
        ),
      ];
      if (entry.provides.capabilities.length > 0) {
        expect(
          providers.length,
          `add ${name}'s model providers to MODEL_PROVIDERS`,
        ).toBeGreaterThan(0);
      }
      expect(registered.sort()).toEqual([...entry.provides.capabilities].sort());
      // A package that exports a model provider must list it above for its claim to be checked.
      const exported = await subclassesOf(entry, core.ModelProvider);
      expect(exported.length > 0, `${name} exports a model provider`).toBe(providers.length > 0);
    },
  );

  it.each(entries.map((entry) => [entry.name, entry] as const))(
    '%s names exactly the executors and triggers its plugins add [claim:plugins-card-facts]',
    async (name, entry) => {
      if (name === '@weft/plugin-mcp') {
        // One executor per allowed tool, named by the server and the tool.
        const { toolExecutor } = await import('../../packages/plugin-mcp/src/tool-executor');
        const executor = toolExecutor(
          'docs',
          { name: 'search', inputSchema: { type: 'object' } },
          { connection: {} as never, maxResultBytes: 1000, logger: () => ({}) as never },
        );
        expect(executor.action).toBe('docs.search');
        expect(entry.provides.executors).toEqual(['<plugin id>/<server>.<tool>']);
        expect(entry.provides.triggers).toEqual([]);
        return;
      }
      const plugins = (await PLUGINS[name]?.()) ?? [];
      const exported = await subclassesOf(entry, core.Plugin);
      expect(exported.length > 0, `${name} exports a plugin: add it to PLUGINS`).toBe(
        plugins.length > 0,
      );
      const executors = plugins.flatMap((plugin) =>
        plugin.executors.map((executor) => `${plugin.id}/${executor.action}`),
      );
      const triggers = plugins.flatMap((plugin) =>
        plugin.triggers.map((trigger) => `${plugin.id}/${trigger.id}`),
      );
      expect(executors.sort()).toEqual([...entry.provides.executors].sort());
      expect(triggers.sort()).toEqual([...entry.provides.triggers].sort());
    },
  );

  it.each(entries.map((entry) => [entry.name, entry] as const))(
    '%s provides exactly the services its code bears out [claim:plugins-card-facts] [claim:cg-catalogue-new-service]',
    async (_name, entry) => {
      const borneOut: ServiceId[] = [];
      for (const service of SERVICE_IDS) {
        if (await PROVIDES[service](entry)) borneOut.push(service);
      }
      expect(borneOut).toEqual(
        SERVICE_IDS.filter((service) => entry.provides.services.includes(service)),
      );
    },
  );

  it.each(entries.map((entry) => [entry.name, entry] as const))(
    '%s requires exactly the services its code bears out [claim:plugins-card-facts] [claim:cg-catalogue-new-service]',
    async (_name, entry) => {
      const borneOut: ServiceId[] = [];
      for (const service of SERVICE_IDS) {
        if (service === 'runtime') {
          if (
            entry.coreVersions !== undefined &&
            entry.name !== '@weft/core' &&
            (await pluggedIntoRuntime(entry))
          )
            borneOut.push(service);
          continue;
        }
        if (await REQUIRES[service](entry)) borneOut.push(service);
      }
      expect(borneOut).toEqual(
        SERVICE_IDS.filter((service) => entry.requires.services.includes(service)),
      );
    },
  );

  it.each(entries.map((entry) => [entry.name, entry] as const))(
    '%s requires the text-generation capability exactly when its code uses the text model',
    (_name, entry) => {
      // Directly, or through the executors of a first-party plugin it builds on (the websocket
      // plugin answers with plugin-chat's reply executor).
      const usesThroughPlugin = entries.some(
        (other) =>
          other.kind === 'plugin' &&
          dependsOn(entry, other.name) &&
          USES_TEXT_MODEL.test(sourceOf(other)),
      );
      const uses =
        entry.kind !== 'model-provider' &&
        entry.name !== '@weft/testing' &&
        (USES_TEXT_MODEL.test(sourceOf(entry)) || usesThroughPlugin);
      expect(entry.requires.capabilities.includes('text-generation')).toBe(uses);
    },
  );

  it("the model providers page's table names each exported model provider, its package and what it offers [claim:mpi-first-party-providers]", async () => {
    const expected: string[] = [];
    for (const entry of entries) {
      const exported = await subclassesOf(entry, core.ModelProvider);
      const instances = (await MODEL_PROVIDERS[entry.name]?.()) ?? [];
      for (const provider of instances) {
        expect(exported, `${entry.name} exports ${provider.constructor.name}`).toContain(
          provider.constructor,
        );
        const offers = provider.capabilities.map((capability) => capability.id).join(', ');
        expect(offers, `${provider.constructor.name} offers text-generation alone`).toBe(
          core.TEXT_GENERATION_CAPABILITY,
        );
        expect(entry.provides.capabilities).toEqual([offers]);
        expected.push(`${entry.name} ${provider.constructor.name} ${offers}`);
      }
    }
    // Rows of the table under "First-party providers": | `package` | `Class` | `capability` ... |
    const page = readFileSync(
      path.resolve(__dirname, '../../docs/model-providers/index.md'),
      'utf8',
    );
    const section = page.split('## First-party providers')[1]?.split('\n## ')[0] ?? '';
    const rows = [...section.matchAll(/^\| `([^`]+)` +\| `([^`]+)` +\| `([^`]+)`/gm)].map(
      ([, name, provider, offers]) => `${name} ${provider} ${offers}`,
    );
    expect(expected.length).toBe(2);
    expect(rows.sort()).toEqual(expected.sort());
    expect(section).toMatch(/^Two first-party packages export a model provider/m);
  });

  it('the service checks can fail: a package that claims what it does not have is caught', async () => {
    const sqlite = entries.find((entry) => entry.name === '@weft/memory-sqlite')!;
    expect(await PROVIDES.memory(sqlite)).toBe(true);
    expect(await PROVIDES.coordination(sqlite)).toBe(false);
    expect(REQUIRES.postgresql(sqlite)).toBe(false);
    const chat = entries.find((entry) => entry.name === '@weft/plugin-chat')!;
    expect(await PROVIDES.memory(chat)).toBe(false);
    expect(await REQUIRES['http-server'](chat)).toBe(true);
  });
});
