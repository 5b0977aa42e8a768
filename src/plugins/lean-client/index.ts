/**
 * Local Docusaurus plugin: keeps code that only some pages need out of the entry bundle every
 * first visit downloads, and work out of hydration (see "Size and speed" in
 * docs/contributing-guide.md). Every change it makes is a row of rows.ts, which says what each
 * replaces and why; this file only turns the rows into Rspack configuration.
 */
import path from 'node:path';
import type { LoadContext, Plugin } from '@docusaurus/types';
import { LEAN_CLIENT_ROWS, type LeanClientBundle, type LeanClientRow } from './rows';

const appliesTo = (bundle: LeanClientBundle, isServer: boolean): boolean =>
  bundle === 'both' || (bundle === 'server') === isServer;

/** The rows of one kind, with their rule narrowed to it. */
function rulesOf<Kind extends LeanClientRow['rule']['kind']>(
  rows: readonly LeanClientRow[],
  kind: Kind,
): Extract<LeanClientRow['rule'], { kind: Kind }>[] {
  return rows
    .map((row) => row.rule)
    .filter((rule): rule is Extract<LeanClientRow['rule'], { kind: Kind }> => rule.kind === kind);
}

export default function pluginLeanClient(context: LoadContext): Plugin {
  const fromSite = (file: string) => path.join(context.siteDir, file);
  return {
    name: 'weft-lean-client',
    getClientModules: () =>
      rulesOf(LEAN_CLIENT_ROWS, 'client-module').map((rule) => fromSite(rule.module)),
    configureWebpack(_config, isServer, { currentBundler }) {
      const { NormalModuleReplacementPlugin } = currentBundler.instance;
      const rows = LEAN_CLIENT_ROWS.filter((row) => appliesTo(row.bundle, isServer));
      return {
        resolve: {
          alias: Object.fromEntries(
            rulesOf(rows, 'alias').map((rule) => [`${rule.request}$`, fromSite(rule.replacement)]),
          ),
        },
        module: {
          rules: rulesOf(rows, 'loader').map((rule) => ({
            test:
              rule.test instanceof RegExp
                ? rule.test
                : path.join(context.generatedFilesDir, rule.test.generated),
            enforce: 'pre' as const,
            loader: fromSite(rule.loader),
          })),
        },
        plugins: rulesOf(rows, 'replace-module').map(
          (rule) => new NormalModuleReplacementPlugin(rule.test, fromSite(rule.replacement)),
        ),
      };
    },
  };
}
