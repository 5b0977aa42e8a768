/**
 * The contributing guide's "Docusaurus internals" table lists the theme components the site
 * swizzles, each as wrapped (it renders the theme's own through `@theme-original/…`) or ejected
 * (a copy the site keeps in step by hand). This holds that list to src/theme/: a file there that
 * overrides a component of theme-classic or of the search plugin is a swizzled component, and it
 * is wrapped exactly when it imports the original. Docusaurus's own swizzle config says which of
 * them it marks safe.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { workingTreeFiles } from '../support/working-tree';

const root = path.resolve(__dirname, '../..');

/** Where theme-classic's components are, the search plugin's and Docusaurus's own fallbacks (Loading). */
const CLASSIC = path.join(root, 'node_modules/@docusaurus/theme-classic/lib/theme');
const SEARCH = path.join(
  root,
  'node_modules/@easyops-cn/docusaurus-search-local/dist/client/client/theme',
);
const CORE = path.join(root, 'node_modules/@docusaurus/core/lib/client/theme-fallback');

/** Whether a theme folder has the component, as a module or a folder with an index. */
const hasComponent = (theme: string, component: string): boolean =>
  ['.js', '.jsx', '/index.js', '/index.jsx'].some((ending) =>
    existsSync(path.join(theme, `${component}${ending}`)),
  );

/** `src/theme/CodeBlock/Content/String.tsx` → `CodeBlock/Content/String`; `…/index.tsx` → its folder. */
function componentOf(file: string): string {
  return file
    .replace(/^src\/theme\//, '')
    .replace(/\.tsx?$/, '')
    .replace(/\/index$/, '');
}

const overrides = workingTreeFiles(root)
  .filter((file) => /^src\/theme\/.*\.tsx?$/.test(file))
  .map((file) => ({ file, component: componentOf(file) }))
  .filter(({ component }) =>
    [CLASSIC, SEARCH, CORE].some((theme) => hasComponent(theme, component)),
  );

const wraps = (file: string, component: string): boolean =>
  readFileSync(path.join(root, file), 'utf8').includes(`'@theme-original/${component}'`);

/** The guide's row of swizzled components: the names after "wrapped:" and after "ejected:". */
function guideLists(): { wrapped: string[]; ejected: string[] } {
  const guide = readFileSync(path.join(root, 'docs/contributing-guide.md'), 'utf8');
  const row = guide.split('\n').find((line) => line.startsWith('| Swizzled theme components'));
  if (row === undefined) throw new Error('the guide has no "Swizzled theme components" row');
  const cell = row.split('|')[1] ?? '';
  const names = (text: string): string[] =>
    [...text.matchAll(/`([^`]+)`/g)]
      .map((match) => match[1]!)
      .filter((name) => /^[A-Z]\w*(\/[A-Z]\w*)*$/.test(name))
      .sort();
  const [, afterWrapped = ''] = cell.split('wrapped:');
  const [wrappedPart = '', ejectedPart = ''] = afterWrapped.split('ejected:');
  return { wrapped: names(wrappedPart), ejected: names(ejectedPart) };
}

describe('the swizzled theme components', () => {
  it('finds the overrides in src/theme, wrapped and ejected', () => {
    const components = overrides.map(({ component }) => component);
    expect(components).toEqual(expect.arrayContaining(['CodeBlock/Content', 'SearchBar']));
    expect(overrides.some(({ file, component }) => wraps(file, component))).toBe(true);
    expect(overrides.some(({ file, component }) => !wraps(file, component))).toBe(true);
  });

  it('are listed in the contributing guide as wrapped or ejected, each as src/theme has it [claim:cg-internal-swizzled-list]', () => {
    const wrapped = overrides
      .filter(({ file, component }) => wraps(file, component))
      .map(({ component }) => component)
      .sort();
    const ejected = overrides
      .filter(({ file, component }) => !wraps(file, component))
      .map(({ component }) => component)
      .sort();
    expect(guideLists()).toEqual({ wrapped, ejected });
  });

  it("are marked unsafe by theme-classic's swizzle config for how the site swizzles them, but CodeBlock and NavbarItem/ComponentTypes [claim:cg-internal-swizzled-list] [claim:cg-internals-tests-name-them]", async () => {
    const { default: swizzleConfig } =
      (await import('@docusaurus/theme-classic/lib/getSwizzleConfig.js')) as {
        default: () => { components: Record<string, { actions: Record<string, string> }> };
      };
    const { components } = swizzleConfig();
    // The search plugin's SearchBar shadows theme-classic's; the plugin has no swizzle config, so
    // Docusaurus treats each of its components as unsafe.
    const classic = overrides.filter(
      ({ component }) => hasComponent(CLASSIC, component) && !hasComponent(SEARCH, component),
    );
    const safe = classic
      .filter(({ file, component }) => {
        // A component the config does not list is unsafe to swizzle either way.
        const action = wraps(file, component) ? 'wrap' : 'eject';
        return components[component]?.actions[action] === 'safe';
      })
      .map(({ component }) => component)
      .sort();
    expect(safe).toEqual(['CodeBlock', 'NavbarItem/ComponentTypes']);
  });
});
