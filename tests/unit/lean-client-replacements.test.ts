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
