/**
 * Every generated build asset, in one process: the PWA icons and manifest, the diagrams, then
 * the whitepaper. Each generator skips work whose sources have not changed.
 *
 * Run: npm run generate:assets (also run by prestart and prebuild). The generators also run
 * alone: npm run generate:pwa-assets, generate:diagrams, generate:whitepaper.
 */
import { generatePwaAssets } from './generate-pwa-assets';
import { generateWhitepaper } from './generate-whitepaper';
import { renderDiagrams } from './render-diagrams';
import { runWhenMain } from './run-when-main';

async function generateAssets(): Promise<void> {
  await generatePwaAssets();
  await renderDiagrams();
  await generateWhitepaper();
}

runWhenMain(import.meta.url, 'generate the build assets', generateAssets);
