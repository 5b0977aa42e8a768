/**
 * What the Run panels cost (src/components/RunPanel/): for each example, the chunks its press
 * loads hold the panel, the example's run and the Weft core with its browser platform, at most
 * 150 KB gzipped together, and none of them is among the scripts any page loads before it works.
 *
 * The examples and their pages are the registry's (src/components/RunPanel/registry.ts): each
 * entry's pages show its panel, and no built page shows a panel the registry does not list.
 *
 * The chunks are found from the shell's own code: each example's dynamic import
 * (./examples/<id>/load.ts) compiles to `Promise.all([n.e("<id>"), ...])` or `n.e("<id>")`, and
 * chunk files are named `<id>.<hash>.js`. An example's group is the one whose chunks hold its
 * plugin's description, the string its entry's plugin file declares.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIRST_LOAD_PAGES, firstLoad } from '../../tooling/first-load';
import { COMPILE_HINT } from '../../src/plugins/weft-in-browser/compile-hints';
import { routeChunks } from '../../tooling/route-chunks';
import { RUN_PANELS, type RunExample } from '../../src/components/RunPanel/registry';
import { assertBuildExists, buildDir } from './support/build-output';

/** The ceiling for what a panel's press loads, with the core, gzipped. */
const PANEL_GZIP_BUDGET = 150_000;

/**
 * The ceiling for the editor's chunks, gzipped: CodeMirror's view, state and TypeScript grammar
 * (about 135 KB), sucrase (about 47 KB), and the source of each plugin a page lets the reader
 * edit, as the package ships it (the HTTP chat plugin's grew with its room and caller checks).
 * The margin lets a minor upgrade or a plugin's growth in, not another library. Only the editor
 * button loads them.
 */
const EDITOR_GZIP_BUDGET = 225_000;

/**
 * Strings only the editor's libraries hold: CodeMirror's base theme's class of its scrolling
 * element, and an option name sucrase validates. Each must be in the editor's chunks and nowhere
 * a page or a Run press loads.
 */
const EDITOR_MARKERS = ['.cm-scroller', 'enableLegacyBabel5ModuleInterop'];

const repositoryRoot = path.resolve(__dirname, '../..');

/** The description the plugin file declares (`readonly description = '…'`), a string its chunks hold. */
function pluginDescription(file: string): string {
  const source = readFileSync(path.join(repositoryRoot, file), 'utf8');
  const found = /readonly description\s*=\s*(?:\n\s*)?'([^']+)'/.exec(source)?.[1];
  if (!found) throw new Error(`${file} declares no \`readonly description = '…'\``);
  return found;
}

/** Each example's plugin description, read from the plugin file its registry entry names. */
const EXAMPLES = Object.fromEntries(
  (Object.keys(RUN_PANELS) as RunExample[]).map((id) => [
    id,
    pluginDescription(RUN_PANELS[id].plugin),
  ]),
) as Record<RunExample, string>;

/** The pages that show a panel, from the registry, checked with the site's first-load pages. */
const PANEL_PAGES = [
  ...new Set(
    (Object.keys(RUN_PANELS) as RunExample[]).flatMap((id) =>
      RUN_PANELS[id].pages.map((page) => page.path),
    ),
  ),
];

const jsDir = path.join(buildDir, 'assets', 'js');

function chunkFiles(): string[] {
  return readdirSync(jsDir).filter((file) => file.endsWith('.js'));
}

const read = (file: string): string => readFileSync(path.join(jsDir, file), 'utf8');

/** The chunk files of each dynamic import in the shell, one list per import. */
function importGroups(): string[][] {
  // The shell is compiled into the chunk of each page that shows a panel.
  const shells = chunkFiles().filter((file) => read(file).includes('"data-run-panel"'));
  expect(shells.length, 'chunks holding the Run panel shell').toBeGreaterThan(0);
  const shell = shells.map(read).join('\n');
  const found = [
    ...[...shell.matchAll(/Promise\.all\(\[((?:\w+\.e\("?\w+"?\),?)+)\]\)/g)].map((match) =>
      [...match[1]!.matchAll(/\.e\("?(\w+)"?\)/g)].map((id) => id[1]!),
    ),
    ...[...shell.matchAll(/(?<!\[|,)\b\w+\.e\("?(\w+)"?\)\.then/g)].map((match) => [match[1]!]),
  ];
  const groups = [...new Map(found.map((ids) => [ids.join(','), ids])).values()];
  return groups.map((ids) => {
    const files = ids.map((id) => chunkFiles().find((file) => file.startsWith(`${id}.`)));
    expect(files, `every chunk of the import [${ids.join(', ')}] exists`).not.toContain(undefined);
    return files as string[];
  });
}

/** The chunk files the Run button of an example loads. */
function panelChunks(example: RunExample): string[] {
  const found = importGroups().filter((files) =>
    files.some((file) => read(file).includes(EXAMPLES[example])),
  );
  expect(found, `one dynamic import loads the ${example} run`).toHaveLength(1);
  return found[0]!;
}

beforeAll(assertBuildExists);

describe('the Run panels', () => {
  it.each(Object.keys(EXAMPLES) as (RunExample)[])(
    '%s: its press loads the panel, its run and the core in chunks of at most 150 KB gzipped, without another example [claim:contributing-run-panel-build-registry]',
    (example) => {
      const files = panelChunks(example);
      const code = files.map(read).join('\n');
      // The core, its browser platform, the scripted model and the panel are in what it loads.
      expect(code).toContain('route triggers are not served');
      expect(code).toContain('no scripted response left for request');
      expect(code).toContain('What happened in the run');
      expect(code).not.toContain('__express');
      // No other example's run comes with it.
      for (const [other, marker] of Object.entries(EXAMPLES)) {
        if (other !== example) expect(code).not.toContain(marker);
      }
      const gzip = files.reduce((sum, file) => sum + gzipSync(read(file), { level: 9 }).length, 0);
      console.info(
        `Run panel ${example}: ${files.join(' ')}: ${gzip} bytes gzipped, budget ${PANEL_GZIP_BUDGET}`,
      );
      expect(gzip).toBeLessThanOrEqual(PANEL_GZIP_BUDGET);
    },
  );

  it.each(Object.keys(EXAMPLES) as (RunExample)[])(
    '%s: the chunks holding the core start with the eager-compile hint',
    (example) => {
      const withCore = panelChunks(example).filter((file) =>
        read(file).includes('route triggers are not served'),
      );
      expect(withCore.length).toBeGreaterThan(0);
      for (const file of withCore) expect(read(file).startsWith(COMPILE_HINT), file).toBe(true);
    },
  );

  it('the examples share one copy of the core: a reader who runs two downloads it once [claim:cg-run-panel-shared-core]', () => {
    const examples = Object.keys(EXAMPLES) as RunExample[];
    const loaded = new Set(examples.flatMap(panelChunks));
    const withCore = [...loaded].filter((file) => read(file).includes('route triggers are not served'));
    expect(withCore).toHaveLength(1);
    for (const example of examples) {
      expect(panelChunks(example), example).toContain(withCore[0]);
    }
  });

  it.each([...new Set([...FIRST_LOAD_PAGES, ...PANEL_PAGES])])(
    '%s loads none of their chunks before it works [claim:contributing-run-panel-build-registry]',
    (route) => {
      const panels = new Set(
        (Object.keys(EXAMPLES) as (RunExample)[]).flatMap(panelChunks),
      );
      const first = [
        ...firstLoad(buildDir, route).scripts.map((script) => path.basename(script.file)),
        ...routeChunks(path.resolve(buildDir, '..'), buildDir, route).components.map((chunk) =>
          path.basename(chunk.file),
        ),
      ];
      expect(first.filter((file) => panels.has(file))).toEqual([]);
      // The hint compiles a whole file eagerly: no script of a first load may carry it.
      expect(first.filter((file) => read(file).startsWith(COMPILE_HINT))).toEqual([]);
    },
  );
});

/** Every built HTML page, with the route it serves. */
function builtPages(): { route: string; file: string }[] {
  const pages: { route: string; file: string }[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (full !== path.join(buildDir, 'assets')) walk(full);
      } else if (entry.name === 'index.html') {
        const relative = path.relative(buildDir, dir).replace(/\\/g, '/');
        pages.push({ route: relative ? `/${relative}/` : '/', file: full });
      }
    }
  };
  walk(buildDir);
  return pages;
}

/** The examples of the panels a built page shows (`data-run-panel=<id>`, quoted or not). */
const panelsIn = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/data-run-panel="?([\w-]+)/g)].map((match) => match[1]!);

describe('the Run panel registry and the built pages', () => {
  it.each(
    (Object.keys(RUN_PANELS) as RunExample[]).flatMap((id) =>
      RUN_PANELS[id].pages.map((page) => [id, page.path] as const),
    ),
  )('%s: %s shows its panel once [claim:contributing-run-panel-build-registry]', (id, route) => {
    const file = path.join(buildDir, route, 'index.html');
    expect(existsSync(file), file).toBe(true);
    expect(panelsIn(file).filter((example) => example === id)).toHaveLength(1);
  });

  it('no built page shows a panel the registry does not list there [claim:contributing-run-panel-build-registry]', () => {
    const listed = new Set(
      (Object.keys(RUN_PANELS) as RunExample[]).flatMap((id) =>
        RUN_PANELS[id].pages.map((page) => `${page.path} ${id}`),
      ),
    );
    const shown = builtPages().flatMap(({ route, file }) =>
      panelsIn(file).map((example) => `${route} ${example}`),
    );
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.filter((each) => !listed.has(each))).toEqual([]);
  });
});

describe('the Run panel editor', () => {
  /** The chunks holding CodeMirror or sucrase. */
  function editorChunks(): string[] {
    const files = chunkFiles().filter((file) =>
      EDITOR_MARKERS.some((marker) => read(file).includes(marker)),
    );
    for (const marker of EDITOR_MARKERS) {
      expect(files.some((file) => read(file).includes(marker)), marker).toBe(true);
    }
    return files;
  }

  it('is in chunks of its own, of at most 225 KB gzipped, without a second copy of the core', () => {
    const files = editorChunks();
    const gzip = files.reduce((sum, file) => sum + gzipSync(read(file), { level: 9 }).length, 0);
    console.info(
      `Run panel editor: ${files.join(' ')}: ${gzip} bytes gzipped, budget ${EDITOR_GZIP_BUDGET}`,
    );
    expect(gzip).toBeLessThanOrEqual(EDITOR_GZIP_BUDGET);
    // The edited plugin must extend the Plugin class of the core the run already loaded.
    for (const file of files) expect(read(file), file).not.toContain('route triggers are not served');
  });

  it.each(Object.keys(EXAMPLES) as (RunExample)[])(
    '%s: a Run press does not load it',
    (example) => {
      const editor = new Set(editorChunks());
      expect(panelChunks(example).filter((file) => editor.has(file))).toEqual([]);
    },
  );

  it.each([...new Set([...FIRST_LOAD_PAGES, ...PANEL_PAGES])])(
    '%s does not load it before it works',
    (route) => {
      const editor = new Set(editorChunks());
      const first = [
        ...firstLoad(buildDir, route).scripts.map((script) => path.basename(script.file)),
        ...routeChunks(path.resolve(buildDir, '..'), buildDir, route).components.map((chunk) =>
          path.basename(chunk.file),
        ),
      ];
      expect(first.filter((file) => editor.has(file))).toEqual([]);
    },
  );
});
