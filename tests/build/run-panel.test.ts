/**
 * What the Run panel of Getting started costs (src/components/RunPanel/): the chunks its press
 * loads hold the panel and the Weft core with its browser platform, at most 150 KB gzipped
 * together, and none of them is among the scripts any page loads before it works. The chunks are
 * found from the page's own code: the shell's dynamic import compiles to
 * `Promise.all([n.e("<id>"), ...])`, and chunk files are named `<id>.<hash>.js`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIRST_LOAD_PAGES, firstLoad } from '../../scripts/first-load';
import { routeChunks } from '../../scripts/route-chunks';
import { assertBuildExists, buildDir } from './support/build-output';

/** The ceiling for the panel's chunk with the core, gzipped. */
const PANEL_GZIP_BUDGET = 150_000;

const jsDir = path.join(buildDir, 'assets', 'js');

function chunkFiles(): string[] {
  return readdirSync(jsDir).filter((file) => file.endsWith('.js'));
}

const read = (file: string): string => readFileSync(path.join(jsDir, file), 'utf8');

/** The chunk files the Run button's dynamic import loads. */
function panelChunks(): string[] {
  const shells = chunkFiles().filter((file) => read(file).includes('"data-run-panel"'));
  expect(shells, 'one chunk holds the Run panel shell').toHaveLength(1);
  const imports = [...read(shells[0]!).matchAll(/Promise\.all\(\[((?:\w+\.e\("\w+"\),?)+)\]\)/g)];
  const groups = imports.map((match) =>
    [...match[1]!.matchAll(/\.e\("(\w+)"\)/g)].map((id) =>
      chunkFiles().find((file) => file.startsWith(`${id[1]}.`)),
    ),
  );
  const panel = groups.find((files) =>
    files.some((file) => file !== undefined && read(file).includes('the failing preset')),
  );
  expect(panel, 'the shell imports the panel dynamically').toBeDefined();
  expect(panel).not.toContain(undefined);
  return panel as string[];
}

beforeAll(assertBuildExists);

describe('the Run panel of Getting started', () => {
  it('loads the panel and the core in chunks of at most 150 KB gzipped', () => {
    const files = panelChunks();
    const code = files.map(read).join('\n');
    // The core, its browser platform, the scripted model and zod are in what the press loads.
    expect(code).toContain('route triggers are not served');
    expect(code).toContain('no scripted response left for request');
    expect(code).not.toContain('__express');
    const gzip = files.reduce((sum, file) => sum + gzipSync(read(file), { level: 9 }).length, 0);
    console.info(`Run panel: ${files.join(' ')}: ${gzip} bytes gzipped, budget ${PANEL_GZIP_BUDGET}`);
    expect(gzip).toBeLessThanOrEqual(PANEL_GZIP_BUDGET);
  });

  it.each(FIRST_LOAD_PAGES)('%s loads none of its chunks before it works', (route) => {
    const panel = panelChunks();
    const first = [
      ...firstLoad(buildDir, route).scripts.map((script) => path.basename(script.file)),
      ...routeChunks(path.resolve(buildDir, '..'), buildDir, route).components.map((chunk) =>
        path.basename(chunk.file),
      ),
    ];
    expect(first.filter((file) => panel.includes(file))).toEqual([]);
  });
});
