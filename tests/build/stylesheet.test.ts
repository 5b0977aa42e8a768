/**
 * The production stylesheet keeps every Infima rule the site can use (src/plugins/lean-css
 * purges the others): no class that a built page or the client code names is one that Infima
 * defines and the stylesheet lost.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuildExists, buildDir } from './support/build-output';

const INFIMA = path.resolve(__dirname, '../../node_modules/infima/dist/css/default/default.css');

/** Class names a stylesheet defines: every ".name" in its selectors. */
function definedClasses(css: string): Set<string> {
  const selectors = css.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\{[^{}]*\}/g, '{}');
  return new Set([...selectors.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((match) => match[1]!));
}

function filesIn(dir: string, extension: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((file) => file.endsWith(extension))
    .map((file) => path.join(dir, file));
}

/** Every class in a class attribute of a built page. */
function classesInPages(): Set<string> {
  const classes = new Set<string>();
  for (const file of filesIn(buildDir, '.html')) {
    for (const match of readFileSync(file, 'utf8').matchAll(/\sclass=(?:"([^"]*)"|([^\s>]+))/g)) {
      for (const name of (match[1] ?? match[2] ?? '').split(/\s+/)) {
        if (name) classes.add(name);
      }
    }
  }
  return classes;
}

/** Every class-like word in the client code (a class set at run time is written there). */
function wordsInScripts(): Set<string> {
  const words = new Set<string>();
  for (const file of filesIn(path.join(buildDir, 'assets', 'js'), '.js')) {
    for (const word of readFileSync(file, 'utf8').match(/[\w-]+/g) ?? []) words.add(word);
  }
  return words;
}

describe('the production stylesheet', () => {
  let infima: Set<string>;
  let shipped: Set<string>;

  beforeAll(() => {
    assertBuildExists();
    infima = definedClasses(readFileSync(INFIMA, 'utf8'));
    const stylesheets = filesIn(path.join(buildDir, 'assets', 'css'), '.css');
    shipped = definedClasses(stylesheets.map((file) => readFileSync(file, 'utf8')).join('\n'));
  });

  it('leaves out Infima rules nothing uses [claim:cg-size-infima-purged]', () => {
    const dropped = [...infima].filter((name) => !shipped.has(name));
    // Utilities and components no page or component of the site uses.
    expect(dropped).toEqual(expect.arrayContaining(['button-group', 'pagination__item', 'text--justify']));
  });

  it('keeps every Infima class that a page or the client code names [claim:cg-size-infima-purged]', () => {
    const used = new Set([...classesInPages(), ...wordsInScripts()]);
    const lost = [...infima].filter((name) => used.has(name) && !shipped.has(name)).sort();
    expect(lost, 'Infima classes in use that the stylesheet lost (see src/plugins/lean-css)').toEqual([]);
  });

  it('keeps the rules of the states the client switches to', () => {
    for (const name of ['navbar-sidebar--show', 'menu__list-item--collapsed', 'tabs__item--active', 'dropdown--show']) {
      expect(shipped, name).toContain(name);
    }
  });
});
