/**
 * Which generators `npm start`, `npm run build` and `npm run generate:assets -- <names>` run
 * (tooling/assets/generate-assets.ts): the build renders the samples' hover types with the other
 * assets, in its own process before Docusaurus starts (scripts/build-site.ts), and the dev server
 * leaves them out.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  filesUnder,
  forgetGenerated,
  generateIfChanged,
  type GeneratedAsset,
} from '@weft-internal/generated-assets/stamp';
import { BUILD_GENERATORS } from '../../scripts/build-site';
import { chosenGenerators } from '../../tooling/assets/generate-assets';
import { pwaAssets } from '../../tooling/assets/generate-pwa-assets';
import { whitepaper } from '../../tooling/assets/generate-whitepaper';
import { renderDiagrams } from '../../tooling/assets/render-diagrams';
import { LOGO_SOURCE } from '../../src/pwa/assets';

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
  it('renders the other assets in the build before Docusaurus starts, and the hover types apart [claim:cg-build-hover-types-beside]', () => {
    expect(scripts.build).toBe('node --import tsx scripts/build-site.ts');
    expect(BUILD_GENERATORS).toEqual(['pwa-assets', 'diagrams', 'whitepaper']);
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

describe('what the generators skip', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it("hash the icons' and the whitepaper's sources, their script, site.ts and their renderer's version; the whitepaper's figures too [claim:cg-asset-stamp-sources]", () => {
    expect(pwaAssets.sources).toEqual(
      expect.arrayContaining([
        LOGO_SOURCE,
        'src/pwa/assets.ts',
        'libs/docs-model/site.ts',
        'tooling/assets/generate-pwa-assets.ts',
      ]),
    );
    expect(pwaAssets.packages).toEqual(['sharp']);
    const diagramSources = filesUnder('docs').filter((file) =>
      file.split(path.sep).includes('diagrams'),
    );
    expect(diagramSources.length).toBeGreaterThan(0);
    expect(whitepaper.sources).toEqual(
      expect.arrayContaining([
        'whitepaper/whitepaper.md',
        'libs/docs-model/site.ts',
        'tooling/assets/generate-whitepaper.ts',
        ...diagramSources,
        ...filesUnder('libs/diagrams'),
      ]),
    );
    expect(whitepaper.packages).toEqual(['pdfkit']);
  });

  it('skip an asset whose sources match the stamp and whose outputs exist, unless FORCE_GENERATE=true [claim:cg-asset-stamp-sources] [claim:cg-force-generate]', async () => {
    const asset: GeneratedAsset = {
      name: `generate-assets-test-${process.pid}`,
      sources: ['package.json'],
      packages: [],
      outputs: ['package.json'],
    };
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    let runs = 0;
    const generate = async (): Promise<void> => {
      runs += 1;
    };
    try {
      vi.stubEnv('FORCE_GENERATE', undefined);
      await generateIfChanged(asset, generate);
      await generateIfChanged(asset, generate);
      expect(runs).toBe(1);
      vi.stubEnv('FORCE_GENERATE', 'true');
      await generateIfChanged(asset, generate);
      expect(runs).toBe(2);
    } finally {
      forgetGenerated(asset);
    }
  });

  it('draw a diagram again only when its source changes, or when FORCE_GENERATE=true [claim:cg-diagrams-skip-unchanged] [claim:cg-force-generate]', async () => {
    const work = mkdtempSync(path.join(tmpdir(), 'weft-diagrams-'));
    try {
      const docsDir = path.join(work, 'docs');
      const staticDir = path.join(work, 'static');
      const source = path.join(docsDir, 'concepts', 'diagrams', 'task-sequence.sequence.json');
      mkdirSync(path.dirname(source), { recursive: true });
      const text = readFileSync(
        path.resolve(__dirname, '../../docs/concepts/diagrams/task-sequence.sequence.json'),
        'utf8',
      );
      writeFileSync(source, text);
      const svg = path.join(staticDir, 'diagrams', 'concepts', 'task-sequence.svg');
      // What a redraw replaces: the drawing after the hash line.
      const mark = (): void => {
        const [hashLine] = readFileSync(svg, 'utf8').split('\n', 1);
        writeFileSync(svg, `${hashLine}\n<svg>not redrawn</svg>`);
      };
      const redrawn = (): boolean => !readFileSync(svg, 'utf8').includes('not redrawn');

      vi.stubEnv('FORCE_GENERATE', undefined);
      vi.spyOn(console, 'log').mockImplementation(() => undefined);
      await renderDiagrams({ docsDir, staticDir });
      expect(readFileSync(svg, 'utf8')).toMatch(/^<!-- source-hash: [0-9a-f]+ -->\n<svg/);
      mark();
      await renderDiagrams({ docsDir, staticDir });
      expect(redrawn()).toBe(false);

      const { title, ...rest } = JSON.parse(text) as { title: string };
      writeFileSync(source, JSON.stringify({ title: `${title}, changed`, ...rest }));
      await renderDiagrams({ docsDir, staticDir });
      expect(redrawn()).toBe(true);

      mark();
      vi.stubEnv('FORCE_GENERATE', 'true');
      await renderDiagrams({ docsDir, staticDir });
      expect(redrawn()).toBe(true);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
