/**
 * The code blocks' highlighted markup (src/theme/CodeBlock/Content/highlighted-markup.ts), which
 * the server render puts in every page and the browser sets after a client-side navigation.
 */
import { describe, expect, it, vi } from 'vitest';
import { codeTheme } from '../../src/config/prism';
import { encodeTypeHovers } from '../../src/remark/type-hovers/encoding';

// The theme registers its extra languages through this module, which only Docusaurus resolves;
// the languages used here are Prism's defaults.
vi.mock('@theme/prism-include-languages', () => ({ default: () => undefined }));
vi.mock('@docusaurus/theme-classic/lib/theme/CodeBlock/Line/styles.module.css', () => ({
  default: {
    codeLine: 'codeLine_x',
    codeLineNumber: 'codeLineNumber_x',
    codeLineContent: 'codeLineContent_x',
  },
}));

const { escapeHtml, highlightedMarkup } =
  await import('../../src/theme/CodeBlock/Content/highlighted-markup');

const options = { language: 'tsx', theme: codeTheme, lineClassNames: {}, showLineNumbers: false };

describe('highlighted code markup [claim:cg-code-markup-string]', () => {
  it('gives each line a token-line ending in a line break, and each token its types as classes', () => {
    const html = highlightedMarkup({ ...options, code: 'const a = 1;\nlet b;' });
    expect(html).toBe(
      '<div class="token-line"><span class="token keyword">const</span> a <span class="token operator">=</span> <span class="token number">1</span><span class="token punctuation">;</span><br/></div>' +
        '<div class="token-line"><span class="token keyword">let</span> b<span class="token punctuation">;</span><br/></div>',
    );
  });

  it('leaves inline only the style the token stylesheet cannot give, and plain text bare', () => {
    const html = highlightedMarkup({ ...options, code: 'x' });
    expect(html).toBe('<div class="token-line">x<br/></div>');
    expect(highlightedMarkup({ ...options, code: 'const x = "y";' })).not.toContain('style=');
  });

  it('keeps an empty line as an empty inline-block token, so it keeps its height', () => {
    const html = highlightedMarkup({ ...options, code: 'a\n\nb' });
    expect(html).toContain(
      '<div class="token-line"><span class="token plain" style="display:inline-block"></span><br/></div>',
    );
  });

  it('escapes code and type text, so a sample cannot write markup into the page', () => {
    const html = highlightedMarkup({
      ...options,
      language: 'text',
      code: '<img src=x onerror="alert(1)"> & \'q\'',
    });
    expect(html).toBe(
      '<div class="token-line">&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#x27;q&#x27;<br/></div>',
    );
    expect(escapeHtml(`<>&"'`)).toBe('&lt;&gt;&amp;&quot;&#x27;');
  });

  it('makes a typed identifier one focusable span carrying its type, and skips an empty type', () => {
    const code = 'const size = meta;';
    const typeHovers = encodeTypeHovers([
      { start: 6, length: 4, text: 'const size: "a" | <b>' },
      { start: 13, length: 4, text: '' },
    ]);
    const html = highlightedMarkup({ ...options, code, typeHovers });
    expect(html).toContain(
      '<span class="weft-type-hover" tabindex="0" data-type="const size: &quot;a&quot; | &lt;b&gt;" aria-description="const size: &quot;a&quot; | &lt;b&gt;">size</span>',
    );
    expect(html).toContain('<span class="token operator">=</span> meta<span');
  });

  it('cuts out every typed identifier, several in a line and on the lines after', () => {
    const code = 'x = a + b;\ny = c;';
    const typeHovers = encodeTypeHovers([
      { start: 4, length: 1, text: 'const a: number' },
      { start: 8, length: 1, text: 'const b: number' },
      { start: 15, length: 1, text: 'const c: string' },
    ]);
    const html = highlightedMarkup({ ...options, code, typeHovers });
    for (const [name, type] of [
      ['a', 'number'],
      ['b', 'number'],
      ['c', 'string'],
    ]) {
      expect(html).toContain(
        `data-type="const ${name}: ${type}" aria-description="const ${name}: ${type}">${name}</span>`,
      );
    }
    expect(html.match(/weft-type-hover/g)).toHaveLength(3);
  });

  it('adds magic-comment classes to their line and the theme line classes with line numbers', () => {
    const html = highlightedMarkup({
      ...options,
      code: 'one\ntwo',
      lineClassNames: { 1: ['theme-code-block-highlighted-line'] },
      showLineNumbers: true,
    });
    expect(html).toBe(
      '<div class="token-line codeLine_x"><span class="codeLineNumber_x"></span><span class="codeLineContent_x">one</span><br/></div>' +
        '<div class="token-line theme-code-block-highlighted-line codeLine_x"><span class="codeLineNumber_x"></span><span class="codeLineContent_x">two</span><br/></div>',
    );
  });

  it('shows code in a language Prism does not know as plain lines', () => {
    expect(highlightedMarkup({ ...options, language: 'no-such-language', code: 'a b\nc' })).toBe(
      '<div class="token-line">a b<br/></div><div class="token-line">c<br/></div>',
    );
  });
});
