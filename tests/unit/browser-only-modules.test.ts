/**
 * src/plugins/browser-only-modules: the server-side render's bundle gets a throwing stand-in for
 * each module only the browser loads, and nothing else.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { LoadContext } from '@docusaurus/types';
import { describe, expect, it } from 'vitest';
import pluginBrowserOnlyModules, {
  BROWSER_ONLY_MODULES,
} from '../../src/plugins/browser-only-modules';

const root = path.resolve(__dirname, '../..');

/** Stands in for Rspack's plugin class and records what it was given. */
class RecordedReplacement {
  constructor(
    readonly test: RegExp,
    readonly replacement: string,
  ) {}
}

function configure(isServer: boolean): { plugins?: RecordedReplacement[] } {
  const plugin = pluginBrowserOnlyModules({ siteDir: '/site' } as LoadContext);
  const configureWebpack = plugin.configureWebpack as unknown as (
    config: object,
    isServer: boolean,
    utils: { currentBundler: { instance: { NormalModuleReplacementPlugin: unknown } } },
  ) => { plugins?: RecordedReplacement[] };
  return configureWebpack({}, isServer, {
    currentBundler: { instance: { NormalModuleReplacementPlugin: RecordedReplacement } },
  });
}

/** The requests of every dynamic import a source file writes. */
function dynamicImports(file: string): string[] {
  const source = readFileSync(path.join(root, file), 'utf8');
  return [...source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)].map((match) => match[1]!);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|tsx)$/.test(file))
    .map((file) => path.posix.join(dir, file.split(path.sep).join('/')));
}

describe('modules only the browser loads [claim:cg-server-bundle-browser-only]', () => {
  it('are replaced by their stand-ins in the server bundle, and in no other', () => {
    expect(configure(false).plugins ?? []).toEqual([]);
    expect(configure(true).plugins).toEqual(
      BROWSER_ONLY_MODULES.map(
        ({ request, standIn }) => new RecordedReplacement(request, path.join('/site', standIn)),
      ),
    );
  });

  it.each(BROWSER_ONLY_MODULES)(
    '$importer: every example it loads matches, and no request elsewhere in src/ does',
    ({ request, importer }) => {
      const loads = dynamicImports(importer);
      expect(loads.length).toBeGreaterThan(0);
      expect(loads.filter((load) => !request.test(load))).toEqual([]);
      const elsewhere = sourceFiles('src')
        .filter((file) => file !== importer)
        .flatMap((file) => dynamicImports(file).filter((load) => request.test(load)));
      expect(elsewhere).toEqual([]);
    },
  );

  it('each stand-in fails a render that loads it, saying why [claim:cg-server-bundle-stand-in-throws]', async () => {
    for (const { standIn } of BROWSER_ONLY_MODULES) {
      await expect(import(path.join(root, standIn))).rejects.toThrow(
        'examples load in the browser only',
      );
    }
  });
});
