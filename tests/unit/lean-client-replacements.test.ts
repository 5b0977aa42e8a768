/**
 * Modules that src/plugins/lean-client puts in place of Docusaurus's own in the browser bundle
 * mirror what those do. When a Docusaurus upgrade changes one of the originals, these fail, so
 * the replacement is checked against the new version instead of silently dropping a change.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const siteDir = path.resolve(__dirname, '../..');

/** An installed Docusaurus file (the packages' exports do not list their lib/ files). */
function docusaurusFile(packageName: string, file: string): string {
  return readFileSync(path.join(siteDir, 'node_modules', packageName, file), 'utf8');
}

const importsOf = (source: string): string[] =>
  [...source.matchAll(/^import .*? from '([^']+)';$/gm)].map((match) => match[1] ?? '');

describe("client-entry/ and Docusaurus's clientEntry.js", () => {
  const original = docusaurusFile('@docusaurus/core', 'lib/client/clientEntry.js');

  it('imports the modules the steps take over, and nothing else', () => {
    // Each is used by client-entry/: React DOM (step-react-dom), the router (step-routes), the
    // head provider, the app, preload and window.docusaurus (step-app); the site config only
    // chooses the hash router, which keeps Docusaurus's entry (lean-client/index.ts).
    expect(importsOf(original).sort()).toEqual(
      [
        '@generated/docusaurus.config',
        './App',
        './docusaurus',
        './exports/ExecutionEnvironment',
        './preload',
        'react',
        'react-dom/client',
        'react-helmet-async',
        'react-router-dom',
      ].sort(),
    );
  });

  it('hydrates once the route is preloaded, as a transition, and exposes window.docusaurus', () => {
    expect(original).toMatch(
      /preload\(window\.location\.pathname\)\.then\(\(\) => \{\s*startTransition\(renderApp\);/,
    );
    expect(original).toContain('ReactDOM.hydrateRoot(container, app, {');
    expect(original).toContain('window.docusaurus = docusaurus;');
    expect(original).toContain("document.getElementById('__docusaurus')");
  });
});

describe("window-size.ts and theme-common's useWindowSize", () => {
  const original = docusaurusFile('@docusaurus/theme-common', 'lib/hooks/useWindowSize.js');

  it('uses the same breakpoint and the same comparison', () => {
    expect(original).toContain('const DesktopBreakpoint = 996;');
    expect(original).toContain('return window.innerWidth > desktopBreakpoint');
    const replacement = readFileSync(
      path.join(siteDir, 'src/plugins/lean-client/window-size.ts'),
      'utf8',
    );
    expect(replacement).toContain('const DESKTOP_BREAKPOINT = 996;');
    expect(replacement).toContain("window.innerWidth > desktopBreakpoint ? 'desktop' : 'mobile'");
  });
});
