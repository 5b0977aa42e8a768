/**
 * Every generated build asset, in one process: the PWA icons and manifest, the diagrams, the
 * whitepaper and, with `--hover-types` (prebuild: the dev server shows no hover types), the
 * samples' hover types. Each generator skips work whose sources have not changed.
 *
 * Run: npm run generate:assets (also run by prestart and prebuild). The generators also run
 * alone: npm run generate:pwa-assets, generate:diagrams, generate:whitepaper,
 * generate:hover-types.
 */
import { generateHoverTypes } from './generate-hover-types';
import { generatePwaAssets } from './generate-pwa-assets';
import { generateWhitepaper } from './generate-whitepaper';
import { renderDiagrams } from './render-diagrams';
import { runWhenMain } from './run-when-main';

async function generateAssets(): Promise<void> {
  await generatePwaAssets();
  await renderDiagrams();
  await generateWhitepaper();
  if (process.argv.includes('--hover-types')) {
    await generateHoverTypes();
  }
}

runWhenMain(import.meta.url, 'generate the build assets', generateAssets);
