/**
 * The Run panels' registry (src/components/RunPanel/registry.ts) agrees with the examples and the
 * pages: each entry's folder has its run and its loader, its presets are its run's, its plugin
 * file declares the plugin the run uses, and the Markdown places exactly the registry's panels on
 * exactly the registry's pages, each with a preset its example has.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_PANELS, type RunExample } from '../../src/components/RunPanel/registry';
import type { RunDefinition } from '../../src/components/RunPanel/run/definition';

const root = path.resolve(__dirname, '../..');
const ids = Object.keys(RUN_PANELS) as RunExample[];

/** Every Markdown file under docs/, with the route Docusaurus gives it (no page sets a slug). */
function docsPages(): { file: string; route: string }[] {
  const pages: { file: string; route: string }[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.mdx?$/.test(entry.name)) {
        const relative = path.relative(path.join(root, 'docs'), full).replace(/\\/g, '/');
        pages.push({ file: full, route: `/docs/${relative.replace(/\.mdx?$/, '')}/` });
      }
    }
  };
  walk(path.join(root, 'docs'));
  return pages;
}

/** Each `<RunPanel .../>` a page places: its example (default getting-started) and its preset. */
function placedPanels(): { route: string; example: string; preset?: string; file: string }[] {
  return docsPages().flatMap(({ file, route }) => {
    const text = readFileSync(file, 'utf8');
    return [...text.matchAll(/<RunPanel\b([^>]*)\/>/g)].map((match) => {
      const attributes = match[1] ?? '';
      const example = /\bexample="([^"]+)"/.exec(attributes)?.[1] ?? 'getting-started';
      const preset = /\bpreset="([^"]+)"/.exec(attributes)?.[1];
      expect(/^---[\s\S]*?^slug:/m.test(text), `${file} sets a slug`).toBe(false);
      return { route, example, file, ...(preset !== undefined ? { preset } : {}) };
    });
  });
}

describe('the Run panel registry', () => {
  it.each(ids)(
    '%s: its folder holds its run and its loader, and its button starts with Run [claim:contributing-run-panel-registry]',
    (id) => {
      const folder = path.join(root, 'src/components/RunPanel/examples', id);
      expect(existsSync(path.join(folder, 'run.ts'))).toBe(true);
      expect(existsSync(path.join(folder, 'load.ts'))).toBe(true);
      expect(RUN_PANELS[id].button).toMatch(/^Run /);
    },
  );

  it.each(ids)(
    "%s: its presets are its run's, and its plugin file is the one the run imports [claim:contributing-run-panel-registry] [claim:cg-run-panel-definition]",
    async (id) => {
      const { definition } = (await import(
        `../../src/components/RunPanel/examples/${id}/run.ts`
      )) as { definition: RunDefinition };
      expect(definition.id).toBe(id);
      expect(definition.presets.map((preset) => preset.id)).toEqual(RUN_PANELS[id].presets);
      expect(RUN_PANELS[id].presets).toContain(definition.failingPreset);
      const plugin = RUN_PANELS[id].plugin;
      expect(existsSync(path.join(root, plugin)), plugin).toBe(true);
      // The run imports the file, or the package whose source it is.
      const run = readFileSync(
        path.join(root, 'src/components/RunPanel/examples', id, 'run.ts'),
        'utf8',
      );
      const imported = plugin.startsWith('packages/')
        ? `@weft/${plugin.split('/')[1]}`
        : plugin.replace(/\.ts$/, '');
      expect(run).toContain(`${imported}'`);
    },
  );

  it('the pages place exactly the panels the registry lists, each where it says [claim:contributing-run-panel-registry]', () => {
    const placed = placedPanels()
      .map(({ route, example, preset }) => `${route} ${example} ${preset ?? '-'}`)
      .sort();
    const listed = ids
      .flatMap((id) =>
        RUN_PANELS[id].pages.map(
          (page) => `${page.path} ${id} ${'preset' in page ? page.preset : '-'}`,
        ),
      )
      .sort();
    expect(placed).toEqual(listed);
  });

  it("each page's preset is one its example has", () => {
    for (const id of ids) {
      for (const page of RUN_PANELS[id].pages) {
        if ('preset' in page) expect(RUN_PANELS[id].presets, page.path).toContain(page.preset);
      }
    }
  });

  it("a page that tells the reader to press its panel's button names it as the button reads", () => {
    const pressed = placedPanels().flatMap(({ file, example }) =>
      [...readFileSync(file, 'utf8').matchAll(/\*\*(Run\b[^*]*)\*\*/g)].map((match) => ({
        file: path.relative(root, file),
        named: match[1],
        button: RUN_PANELS[example as RunExample].button,
      })),
    );
    // Getting started, Executors, Triggers, HTTP chat, How a task runs and the chat tutorial.
    expect(new Set(pressed.map(({ file }) => file)).size).toBeGreaterThanOrEqual(6);
    for (const { file, named, button } of pressed) expect(named, file).toBe(button);
  });
});
