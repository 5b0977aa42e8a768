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

/** Runs a generator and prints how long it took, so a build log shows what each part costs. */
async function timed(label: string, generate: () => Promise<void>): Promise<void> {
  const started = performance.now();
  await generate();
  console.log(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function generateAssets(): Promise<void> {
  // Side by side: sharp resizes the PWA images on libuv's threads while the others compute here.
  await Promise.all([
    timed('PWA assets', generatePwaAssets),
    timed('diagrams', renderDiagrams),
    timed('whitepaper', generateWhitepaper),
    ...(process.argv.includes('--hover-types') ? [timed('hover types', generateHoverTypes)] : []),
  ]);
}

runWhenMain(import.meta.url, 'generate the build assets', generateAssets);
