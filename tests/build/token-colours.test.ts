/**
 * Code tokens are coloured by the stylesheet, not by a style attribute each
 * (src/plugins/prism-token-css, src/theme/CodeBlock/Content/token-stylesheet.ts): the built
 * stylesheet holds a rule for every token type of the site's code theme, and a guide page's
 * tokens and lines carry no inline style where those rules give them their colour. Plain text,
 * which the rules do not colour, is left bare rather than wrapped in an empty-handed span.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { codeTheme } from '../../src/config/prism';
import { styleFromRules, tokenRules } from '../../src/theme/CodeBlock/Content/token-stylesheet';
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

  it('puts no colour on the tokens or lines of Getting started that the rules already give [claim:contributing-token-colours-rules]', () => {
    const html = readRouteHtml('/docs/getting-started/');
    const rules = tokenRules(codeTheme);
    const tokens = findTags(html, 'span').filter((tag) =>
      /(^|\s)token(\s|$)/.test(tag.attributes.class ?? ''),
    );
    expect(tokens.length, 'token spans on Getting started').toBeGreaterThan(1_000);
    // What a token keeps inline must be a property its types' rules set to another value (Prism
    // lets the later type win, the stylesheet the later rule), or an empty line's
    // `display:inline-block`, which Prism gives it and is no colour.
    const needless = tokens.filter((tag) => {
      const style = tag.attributes.style;
      if (style === undefined || /^display:\s*inline-block;?$/.test(style)) return false;
      const types = (tag.attributes.class ?? '').split(/\s+/).filter((name) => name !== 'token');
      const fromRules = styleFromRules(types, rules) as Record<string, unknown>;
      return style.split(';').some((declaration) => {
        const [name = '', value = ''] = declaration.split(/:(.*)/s).map((part) => part.trim());
        const property = name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
        return fromRules[property] === undefined || fromRules[property] === value;
      });
    });
    expect(needless.map((tag) => tag.attributes)).toEqual([]);
    const keptInline = tokens.filter((tag) => tag.attributes.style !== undefined);
    expect(keptInline.length, 'tokens with an inline style').toBeLessThan(tokens.length / 20);
    const lines = findTags(html, 'div').filter((tag) =>
      /(^|\s)token-line(\s|$)/.test(tag.attributes.class ?? ''),
    );
    expect(lines.length).toBeGreaterThan(100);
    expect(lines.filter((tag) => 'style' in tag.attributes)).toEqual([]);
  });

  it('makes most of the elements of Getting started, which sit in its code blocks, and more than half are token spans [claim:cg-code-blocks-most-elements] [claim:cg-code-tokens-half-the-elements]', () => {
    const html = readRouteHtml('/docs/getting-started/');
    // Every start tag, by the attribute-aware pattern of findTags.
    const all = findTags(html, '[a-z][a-z0-9-]*').length;
    const inCodeBlocks = [...html.matchAll(/<pre\b[\s\S]*?<\/pre>/g)].reduce(
      (sum, [block]) => sum + findTags(block, '[a-z][a-z0-9-]*').length,
      0,
    );
    const tokens = findTags(html, 'span').filter((tag) =>
      /(^|\s)token(\s|$)/.test(tag.attributes.class ?? ''),
    ).length;
    console.info(
      `Getting started: ${all} elements, ${inCodeBlocks} in code blocks, ${tokens} token spans`,
    );
    expect(inCodeBlocks / all).toBeGreaterThan(0.75);
    expect(tokens / all).toBeGreaterThan(0.5);
  });

  it('adds under 300 bytes gzipped to the stylesheet [claim:cg-token-rules-stylesheet-bytes]', () => {
    const css = stylesheet();
    // The generated rules as the build minifies them: selectors made only of token types.
    const tokenRule = /(?<=^|[}\n])(?:\.token\.[\w-]+,?)+\{[^}]*\}/g;
    const found = css.match(tokenRule) ?? [];
    expect(found.length, 'token rules in build/assets/css').toBeGreaterThan(0);
    const added =
      gzipSync(css, { level: 9 }).length -
      gzipSync(css.replace(tokenRule, ''), { level: 9 }).length;
    console.info(`token rules: ${found.length} rules, ${added} bytes gzipped`);
    expect(added).toBeLessThan(300);
  });

  it('leaves the plain text of Getting started bare, wrapping only what carries a style', () => {
    const html = readRouteHtml('/docs/getting-started/');
    const plain = findTags(html, 'span').filter(
      (tag) => (tag.attributes.class ?? '').trim() === 'token plain',
    );
    expect(plain.filter((tag) => tag.attributes.style === undefined)).toEqual([]);
    // The sample's first line, `import { Plugin, ... } from '@weft/core';`, as built: its
    // spaces and the plain identifier are text between the coloured tokens.
    expect(html).toMatch(
      /<span class="?token keyword"?>import<\/span> <span class="?token punctuation"?>\{<\/span> <span class="?weft-type-hover"?[^>]*>Plugin<\/span>/,
    );
  });
});
