/**
 * Every generated build asset: the PWA icons and manifest, the diagrams, the whitepaper and, for
 * the build (the dev server shows no hover types), the samples' hover types. Each generator skips
 * work whose sources have not changed. Run in one process by `npm start`, `npm run build` and
 * `npm run generate:assets` (scripts/generate-assets.ts, scripts/build-site.ts).
 */
import { generateHoverTypes } from './generate-hover-types';
import { generatePwaAssets } from './generate-pwa-assets';
import { generateWhitepaper } from './generate-whitepaper';
import { renderDiagrams } from './render-diagrams';

/** Runs a generator and prints how long it took, so a build log shows what each part costs. */
async function timed(label: string, generate: () => Promise<void>): Promise<void> {
  const started = performance.now();
  await generate();
  console.log(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const GENERATORS = {
  'pwa-assets': { label: 'PWA assets', generate: generatePwaAssets },
  diagrams: { label: 'diagrams', generate: renderDiagrams },
  whitepaper: { label: 'whitepaper', generate: generateWhitepaper },
  'hover-types': { label: 'hover types', generate: generateHoverTypes },
} as const;

export type GeneratorName = keyof typeof GENERATORS;

const isGeneratorName = (name: string): name is GeneratorName => Object.hasOwn(GENERATORS, name);

/** The generators the arguments name; none named: all but the hover types unless `--hover-types`. */
export function chosenGenerators(args: readonly string[]): GeneratorName[] {
  const named = args.filter((arg) => !arg.startsWith('--'));
  const unknown = named.filter((name) => !isGeneratorName(name));
  if (unknown.length > 0) {
    throw new Error(
      `no generator named ${unknown.join(', ')}; name one of ${Object.keys(GENERATORS).join(', ')}`,
    );
  }
  if (named.length > 0) return named.filter(isGeneratorName);
  // The dev server shows no hover types, so only the build asks for them.
  const all: GeneratorName[] = ['pwa-assets', 'diagrams', 'whitepaper'];
  return args.includes('--hover-types') ? [...all, 'hover-types'] : all;
}

/** Runs the generators side by side, each printing how long it took. */
export async function generateAssets(names: readonly GeneratorName[]): Promise<void> {
  // Side by side: sharp resizes the PWA images on libuv's threads while the others compute here.
  await Promise.all(names.map((name) => timed(GENERATORS[name].label, GENERATORS[name].generate)));
}
