/**
 * Generates the API reference markdown in `api/` before the docs instance that
 * serves it loads its content.
 *
 * It wraps docusaurus-plugin-typedoc to add what that plugin leaves out:
 * - `TYPEDOC=false` (see src/config/env.ts) skips TypeDoc for quick local builds;
 * - stale output is removed first, and a TypeDoc run that produced nothing (for
 *   example a type error in the core package) fails the build instead of
 *   silently serving old pages;
 * - a build reuses the markdown of the last run when the core's sources, the TypeDoc options
 *   and the TypeDoc packages are unchanged (libs/generated-assets/stamp.ts), since running
 *   TypeDoc is about a quarter of a cold site build;
 * - under `docusaurus start` it reuses that markdown too (or the last dev server's), and starts
 *   TypeDoc in watch mode only once a core source changes: a TypeDoc watch run takes longer
 *   than everything else the dev server does before its first page (measured with
 *   `npm run bench -- dev`). When the markdown is stale at start, the watch starts at once.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LoadContext, Plugin } from '@docusaurus/types';
import { DEV_API_PAGES_COMMAND } from '../../config/api-in-dev-command';
import {
  currentSourceHash,
  filesUnder,
  forgetGenerated,
  generateIfChanged,
  isGenerated,
  recordGenerated,
  type GeneratedAsset,
} from '@weft-internal/generated-assets/stamp';
import {
  API_ENTRY_POINT,
  API_SIDEBAR_FILE,
  API_TSCONFIG,
  type ApiReferenceOptions,
} from '@weft-internal/docs-model/typedoc';

/** What TypeDoc reads besides its options: the core's sources and compiler settings. */
const CORE_DIR = 'packages/core';
/** The settings TypeDoc's output depends on besides the core's sources, site-relative. */
const CORE_SETTINGS_FILES = [
  path.join(CORE_DIR, 'package.json'),
  path.join(CORE_DIR, 'tsconfig.json'),
  API_TSCONFIG,
  'packages/tsconfig.base.json',
  'tsconfig.strict.json',
  'libs/docs-model/typedoc.ts',
  'src/plugins/api-reference/index.ts',
];
/** Packages whose version changes the markdown TypeDoc writes. */
const TYPEDOC_PACKAGES = [
  'typedoc',
  'typedoc-plugin-markdown',
  'typedoc-docusaurus-theme',
  'docusaurus-plugin-typedoc',
];

export interface ApiReferencePluginOptions {
  /** Run TypeDoc; false reuses earlier output or writes a stand-in page. */
  enabled: boolean;
  /** Keep TypeDoc watching the sources (dev server only). */
  watch: boolean;
  typedoc: ApiReferenceOptions & { out: string };
}

/**
 * The docs instance serving api/ checks that its folder exists while plugins are
 * created, in parallel with this plugin's TypeDoc run. The config calls this
 * first, so the folder is there before any plugin starts.
 */
export function ensureApiDir(siteDir: string, out: string): void {
  mkdirSync(path.resolve(siteDir, out), { recursive: true });
}

/** Empties the folder but keeps it, for the same reason. */
async function emptyDir(dir: string): Promise<void> {
  const entries = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    entries.map((entry) => rm(path.join(dir, entry), { recursive: true, force: true })),
  );
}

const WATCH_FIRST_OUTPUT_TIMEOUT_MS = 180_000;

/**
 * The page a build with `TYPEDOC=false` shows at /api/ when no earlier run left pages. Plain
 * `npm start` does not generate the reference either (src/config/api-in-dev.ts), so it is not
 * offered.
 */
export const STAND_IN_PAGE = `---
title: API reference
---

# API reference

This local build skipped the API reference because \`TYPEDOC=false\` was set.
Run \`npm run build\`, or \`${DEV_API_PAGES_COMMAND}\`, without it to generate the reference
from \`${API_ENTRY_POINT}\`.
`;

async function writeStandIn(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await writeFile(path.join(outDir, 'index.md'), STAND_IN_PAGE);
  await writeFile(path.join(outDir, API_SIDEBAR_FILE), 'module.exports = [];\n');
}

function hasOutput(outDir: string): boolean {
  return (
    existsSync(path.join(outDir, 'index.md')) && existsSync(path.join(outDir, API_SIDEBAR_FILE))
  );
}

async function waitForOutput(outDir: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (hasOutput(outDir)) {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return hasOutput(outDir);
}

/**
 * What a build's TypeDoc run depends on and writes: every file under the core's `src/`, its
 * settings files (CORE_SETTINGS_FILES, this plugin among them), the TypeDoc packages' versions
 * and the options, and the two files the pages are checked by. A build runs TypeDoc when any of
 * them changed or an output is missing (libs/generated-assets/stamp.ts).
 */
export function apiReferenceAsset(typedoc: ApiReferencePluginOptions['typedoc']): GeneratedAsset {
  return {
    name: 'api-reference',
    sources: [...filesUnder(path.join(CORE_DIR, 'src')), ...CORE_SETTINGS_FILES],
    packages: TYPEDOC_PACKAGES,
    outputs: [path.join(typedoc.out, 'index.md'), path.join(typedoc.out, API_SIDEBAR_FILE)],
    settings: typedoc,
  };
}

export default async function apiReferencePlugin(
  context: LoadContext,
  options: ApiReferencePluginOptions,
): Promise<Plugin> {
  const outDir = path.resolve(context.siteDir, options.typedoc.out);
  const plugin: Plugin = { name: 'weft-api-reference' };

  if (!options.enabled) {
    if (!hasOutput(outDir)) {
      await writeStandIn(outDir);
    }
    return plugin;
  }

  /** Runs TypeDoc through docusaurus-plugin-typedoc (ESM-only), which runs it when created. */
  const runTypedoc = async ({ keepOldPages = false } = {}): Promise<Plugin> => {
    // A watch started mid-session overwrites the pages in place: emptying the folder would make
    // the API docs instance drop every page until TypeDoc has written them all again.
    if (!keepOldPages) {
      await emptyDir(outDir);
    }
    const { default: typedocPlugin } = await import('docusaurus-plugin-typedoc');
    const typedoc = await typedocPlugin(context, { ...options.typedoc, watch: options.watch });
    // In watch mode TypeDoc writes its first output asynchronously.
    const generated = options.watch
      ? await waitForOutput(outDir, WATCH_FIRST_OUTPUT_TIMEOUT_MS)
      : hasOutput(outDir);
    if (!generated) {
      throw new Error(
        `TypeDoc generated no API reference in ${options.typedoc.out}/ from ${API_ENTRY_POINT}. ` +
          'Its errors are printed above (a missing entry point or a type error in the core package). ' +
          'Fix them, or set TYPEDOC=false for a local build without the API reference.',
      );
    }
    return { ...typedoc, name: plugin.name };
  };

  /** Described afresh each time, so a file added to the core's sources counts too. */
  const describeAsset = (): GeneratedAsset => apiReferenceAsset(options.typedoc);

  if (options.watch) {
    return devServerPlugin({
      name: plugin.name,
      describeAsset,
      watchPaths: [path.join(CORE_DIR, 'src'), ...CORE_SETTINGS_FILES].map((file) =>
        path.resolve(context.siteDir, file),
      ),
      runTypedoc,
    });
  }
  let generatedPlugin: Plugin | undefined;
  await generateIfChanged(describeAsset(), async () => {
    generatedPlugin = await runTypedoc();
  });
  return generatedPlugin ?? plugin;
}

/**
 * The dev server's side. Its watch-mode output is stamped apart from the build's: TypeDoc's
 * warnings fail a build but not the dev server, so a build never trusts the dev server's
 * markdown, while the dev server trusts either.
 */
export interface DevServerPluginParts {
  name: string;
  /** The build's asset: the core's sources and TypeDoc settings, and the pages they make. */
  describeAsset: () => GeneratedAsset;
  /** What Docusaurus watches for this plugin: the core's sources, absolute. */
  watchPaths: string[];
  /** Starts TypeDoc in watch mode; resolves once its first pages exist. */
  runTypedoc: (options: { keepOldPages: boolean }) => Promise<Plugin>;
}

export async function devServerPlugin({
  name,
  describeAsset,
  watchPaths,
  runTypedoc,
}: DevServerPluginParts): Promise<Plugin> {
  const devAsset = (): GeneratedAsset => {
    const buildAsset = describeAsset();
    return { ...buildAsset, name: `${buildAsset.name}-dev` };
  };
  const upToDate = (): boolean => {
    const buildAsset = describeAsset();
    const hash = currentSourceHash(buildAsset);
    return isGenerated(buildAsset, hash) || isGenerated(devAsset(), hash);
  };
  const startWatching = async (keepOldPages: boolean): Promise<Plugin> => {
    const buildAsset = describeAsset();
    const hash = currentSourceHash(buildAsset);
    // From here on TypeDoc rewrites api/ as the sources change: neither stamp would be true.
    forgetGenerated(buildAsset);
    forgetGenerated(devAsset());
    const watching = await runTypedoc({ keepOldPages });
    // Started on fresh output, it has now written its first pages from these sources. Started
    // over old pages, it may not have yet (they already count as output), so nothing is recorded
    // and the next dev server runs TypeDoc again.
    if (!keepOldPages) {
      recordGenerated(devAsset(), hash);
    }
    return watching;
  };
  if (!upToDate()) {
    return startWatching(false);
  }
  console.log('api-reference: core sources unchanged, serving the generated API pages.');
  let watching: Promise<Plugin> | undefined;
  return {
    name,
    // Docusaurus reloads this plugin (loadContent) when one of these changes; from then on
    // TypeDoc's own watcher follows the sources and rewrites api/, which the API docs
    // instance watches.
    getPathsToWatch: () => watchPaths,
    async loadContent() {
      if (watching === undefined && !upToDate()) {
        console.log('api-reference: a core source changed, starting TypeDoc in watch mode.');
        watching = startWatching(true);
      }
      await watching;
    },
  };
}
