/**
 * Every generated build asset, in one process (tooling/assets/generate-assets.ts).
 *
 * Run: npm run generate:assets (also run by `npm start`; `npm run build` runs the same generators
 * and the hover types in its own process, scripts/build-site.ts). Name generators to run only
 * those: npm run generate:assets -- diagrams whitepaper (pwa-assets, diagrams, whitepaper,
 * hover-types).
 */
import { chosenGenerators, generateAssets } from '../tooling/assets/generate-assets';
import { runWhenMain } from '../tooling/run-when-main';

runWhenMain(import.meta.url, 'generate the build assets', () =>
  generateAssets(chosenGenerators(process.argv.slice(2))),
);
