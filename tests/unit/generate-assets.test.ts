/**
 * Which generators `npm start`, `npm run build` and `npm run generate:assets -- <names>` run
 * (scripts/generate-assets.ts): the build renders the samples' hover types in the same first
 * step as the other assets, before Docusaurus starts, and the dev server leaves them out.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chosenGenerators } from '../../scripts/generate-assets';

const scripts = (
  JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;

/** The arguments a package.json script hands to scripts/generate-assets.ts in its first step. */
function generateAssetsArgs(script: string): string[] {
  const [first = '', ...rest] = script.split(' && ');
  const match = /^tsx scripts\/generate-assets\.ts(.*)$/.exec(first);
  expect(match, script).not.toBeNull();
  expect(rest.length, script).toBeGreaterThan(0);
  return match![1]!.split(' ').filter((arg) => arg !== '');
}

describe('the generated assets', () => {
  it('renders the hover types in the build, before Docusaurus starts, with the other assets [claim:cg-build-hover-types-first]', () => {
    expect(scripts.build).toMatch(/ && tsx scripts\/build-site\.ts$/);
    expect(chosenGenerators(generateAssetsArgs(scripts.build!))).toEqual([
      'pwa-assets',
      'diagrams',
      'whitepaper',
      'hover-types',
    ]);
    expect(chosenGenerators(['hover-types'])).toEqual(['hover-types']);
  });

  it('leaves the hover types out of npm start', () => {
    expect(scripts.start).toMatch(/ && docusaurus start$/);
    expect(chosenGenerators(generateAssetsArgs(scripts.start!))).toEqual([
      'pwa-assets',
      'diagrams',
      'whitepaper',
    ]);
  });

  it('refuses a generator name it does not know, naming the ones it has', () => {
    expect(() => chosenGenerators(['icons'])).toThrow(
      'no generator named icons; name one of pwa-assets, diagrams, whitepaper, hover-types',
    );
  });
});
