/**
 * Code tokens are coloured by the stylesheet, not by a style attribute each
 * (src/plugins/prism-token-css, src/theme/CodeBlock/Content/token-stylesheet.ts): the built
 * stylesheet holds a rule for every token type of the site's code theme, and a guide page's
 * tokens carry no inline style where those rules give them their colour.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { codeTheme } from '../../src/config/prism';
import { tokenRules } from '../../src/theme/CodeBlock/Content/token-stylesheet';
import { assertBuildExists, buildDir, findTags, readRouteHtml } from './support/build-output';

beforeAll(assertBuildExists);

function stylesheet(): string {
  const dir = path.join(buildDir, 'assets', 'css');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.css'))
    .map((file) => readFileSync(path.join(dir, file), 'utf8'))
    .join('\n');
}

describe('code token colours in the build', () => {
  it('has a rule in the stylesheet for every token type of the code theme', () => {
    const css = stylesheet();
    const missing = tokenRules(codeTheme)
      .map((rule) => rule.type)
      .filter((type) => !new RegExp(`\\.token\\.${type}\\s*[{,]`).test(css));
    expect(missing, 'token types without a rule in build/assets/css').toEqual([]);
  });

  it('puts no style attribute on the tokens or lines of Getting started', () => {
    const spans = findTags(readRouteHtml('/docs/getting-started/'), 'span');
    const tokens = spans.filter((tag) => /(^|\s)token(\s|$)/.test(tag.attributes.class ?? ''));
    expect(tokens.length, 'token spans on Getting started').toBeGreaterThan(1_000);
    const styled = tokens.filter(
      (tag) => 'style' in tag.attributes && !/^display:\s*inline-block;?$/.test(tag.attributes.style!),
    );
    // An empty line's token keeps Prism's `display:inline-block`, which is not a colour.
    expect(styled.map((tag) => tag.attributes)).toEqual([]);
    const lines = findTags(readRouteHtml('/docs/getting-started/'), 'div').filter((tag) =>
      /(^|\s)token-line(\s|$)/.test(tag.attributes.class ?? ''),
    );
    expect(lines.length).toBeGreaterThan(100);
    expect(lines.filter((tag) => 'style' in tag.attributes)).toEqual([]);
  });
});
