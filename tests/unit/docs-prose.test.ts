/**
 * Every docs page teaches in prose: at least MIN_WORDS words outside code, tables and front
 * matter, and an opening paragraph that says what the page is for. A reference whose job is a
 * table still says in prose how to read it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const docsDir = path.resolve(__dirname, '../../docs');
const MIN_WORDS = 200;
const MIN_OPENING_WORDS = 15;

const pages = readdirSync(docsDir, { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.mdx?$/.test(file))
  .map((file) => file.split(path.sep).join('/'))
  .sort();

/**
 * The page's running text: front matter, fenced code, tables, MDX imports and JSX/HTML tags
 * removed; links and images reduced to their text.
 */
export function proseOf(markdown: string): string {
  return (
    markdown
      .replace(/^---\n[\s\S]*?\n---\n/, '')
      .replace(/^(```|~~~)[\s\S]*?^\1\s*$/gm, '')
      // Claim ids and other comments: the site drops them, so a reader never sees their words.
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/^\s*\|.*$/gm, '')
      .replace(/^(import|export) .*$/gm, '')
      .replace(/^:::\w*.*$|^:::$/gm, '')
      .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<\/?[A-Za-z][^>]*>/g, '')
  );
}

/** Words: runs of letters or digits, so punctuation and markup do not count. */
export function countWords(text: string): number {
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}'’_-]*/gu)?.length ?? 0;
}

/** What is wrong with a page's amount of prose, or undefined when it has enough. */
export function proseShortfall(markdown: string): string | undefined {
  const words = countWords(proseOf(markdown));
  return words >= MIN_WORDS
    ? undefined
    : `has ${words} words of prose; write at least ${MIN_WORDS}`;
}

/** The first block of the page's prose, before any heading. */
function openingParagraph(markdown: string): string {
  const blocks = proseOf(markdown)
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter((block) => block !== '');
  const first = blocks[0] ?? '';
  return first.startsWith('#') ? '' : first;
}

describe('docs prose', () => {
  it('finds the pages', () => {
    expect(pages).toContain('index.md');
    expect(pages.length).toBeGreaterThan(15);
  });

  it.each(pages)('%s has enough prose [claim:cg-page-200-words]', (page) => {
    const shortfall = proseShortfall(readFileSync(path.join(docsDir, page), 'utf8'));
    expect(shortfall, `${page} ${shortfall}`).toBeUndefined();
  });

  it('refuses a page of 199 words of prose and accepts one of 200, code and tables aside [claim:cg-page-200-words]', () => {
    const words = (count: number): string => Array.from({ length: count }, () => 'word').join(' ');
    const extras = [
      '',
      '```ts',
      words(50),
      '```',
      '',
      '| a | b |',
      '| - | - |',
      `| ${words(50)} | x |`,
    ];
    expect(proseShortfall([words(199), ...extras].join('\n'))).toBe(
      'has 199 words of prose; write at least 200',
    );
    expect(proseShortfall([words(200), ...extras].join('\n'))).toBeUndefined();
  });

  it.each(pages)('%s opens with a paragraph saying what it is for', (page) => {
    const opening = openingParagraph(readFileSync(path.join(docsDir, page), 'utf8'));
    expect(
      countWords(opening),
      `${page} should start, before its first heading, with a paragraph of at least ${MIN_OPENING_WORDS} words`,
    ).toBeGreaterThanOrEqual(MIN_OPENING_WORDS);
  });
});

describe('proseOf and countWords', () => {
  it('leave out front matter, code, tables, imports, tags and claim comments, and keep link text [claim:cg-page-200-words]', () => {
    const page = [
      '---',
      'title: Skipped words here',
      '---',
      "import X from '@site/x';",
      '',
      'One [two](./two.md) three `four`. <!-- claim: skipped-id untested: skipped reason words -->',
      '',
      '```ts',
      'const skipped = true;',
      '```',
      '',
      '| skipped | cells |',
      '| ------- | ----- |',
      '',
      '<figure class="skipped">five</figure>',
      '![skipped alt](./diagrams/x.svg)',
    ].join('\n');
    expect(countWords(proseOf(page))).toBe(5);
  });
});
