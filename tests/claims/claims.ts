/**
 * Claims: the sentences of the docs, the package READMEs, the whitepaper and the TSDoc that
 * state behaviour, each linked to the tests that would fail if the behaviour changed.
 *
 * The link lives in two places and nowhere else:
 *
 * - beside the sentence, a claim id: in Markdown an HTML comment right after the sentence,
 *   `<!-- claim: the-id -->`, or `<!-- claim: the-id untested: why no test can check it -->`;
 *   in a TSDoc comment a `@claim the-id` block tag on its own line at the end of the comment
 *   (a block tag takes the text after it, so nothing but other claim tags may follow it), or
 *   a comment of its own, `/** @claim the-id *\/`, such as above an error registry's entry; in
 *   the JSX of a site page, a JSX comment after the sentence, `{/* claim: the-id *\/}`;
 * - in the title of each test that checks it, `[claim:the-id]`, at the end of the title given
 *   to `it`, `test` or `describe`; a title may carry several.
 *
 * Rewording a sentence touches its page only; renaming a test keeps its ids in its title.
 * `tests/unit/claims.test.ts` holds the ids to each other and `bench/claims.ts`
 * prints the claims with their tests.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MARKDOWN_CLAIM, proseOnly } from '@weft-internal/docs-model/claim-comments';
import { workingTreeFiles } from '../support/working-tree';

export const repositoryRoot = path.resolve(__dirname, '../..');

/** A claim id: lower-case words and digits joined by single hyphens. */
export const CLAIM_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A claim tag line of a TSDoc comment, its leading `*` included. */
const TSDOC_CLAIM_LINE = /^\s*\*?\s*@claim(?:\s+(\S+))?(?:\s+untested:\s*(.*?))?\s*$/;
/** The ids a test title carries. */
const TITLE_CLAIM = /\[claim:([^\]\s]*)\]/g;

/** A claim id as written beside its sentence. */
export interface PageClaim {
  id: string;
  /** The page, from the repository root. */
  file: string;
  /** 1-based line of the id. */
  line: number;
  /** The sentence before a Markdown id, or the start of a TSDoc comment's text. */
  sentence: string;
  /** Why no test checks it, when the page says so. */
  untested?: string;
}

/** A claim id in a test title. */
export interface TestClaim {
  id: string;
  file: string;
  line: number;
  title: string;
}

export interface ClaimInventory {
  pages: PageClaim[];
  tests: TestClaim[];
  /** Malformed ids found while reading, with file and line. */
  problems: string[];
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = 0; index < offset; index += 1) if (text.charCodeAt(index) === 10) line += 1;
  return line;
}

/** The sentence a Markdown claim id follows: back to the previous sentence end or blank line. */
function sentenceBefore(prose: string, offset: number): string {
  // An id right before this one belongs to the same sentence (several ids after one sentence).
  const before = prose.slice(Math.max(0, offset - 600), offset).replace(MARKDOWN_CLAIM, ' ');
  const paragraph = before.split(/\n\s*\n/).pop() ?? '';
  const text = paragraph.replace(/\s+/g, ' ').trim();
  // The last sentence end before the text's own: a mark, closing markup, a space, a capital.
  let start = 0;
  for (const end of text.slice(0, -1).matchAll(/[.!?][*_`)\]"']*\s+(?=[A-Z`*_[("'])/g)) {
    start = (end.index ?? 0) + end[0].length;
  }
  return text.slice(start).trim();
}

/** The claim ids of a Markdown page, skipping those shown in code. */
export function markdownClaims(markdown: string, file: string): ClaimInventory {
  const prose = proseOnly(markdown);
  const withCode = proseOnly(markdown, true);
  const inventory: ClaimInventory = { pages: [], tests: [], problems: [] };
  for (const match of prose.matchAll(MARKDOWN_CLAIM)) {
    const offset = match.index ?? 0;
    const id = match[1] ?? '';
    const untested = match[2]?.replace(/\s+/g, ' ').trim();
    inventory.pages.push({
      id,
      file,
      line: lineAt(markdown, offset),
      sentence: sentenceBefore(withCode, offset),
      ...(untested !== undefined ? { untested } : {}),
    });
    if (untested === '') {
      inventory.problems.push(
        `${file}:${lineAt(markdown, offset)}: claim ${id} says "untested:" with no reason; give the reason after it`,
      );
    }
  }
  return inventory;
}

/**
 * The claim ids of a page written in JSX (the site's own pages, such as the plugins page): a
 * JSX comment right after the sentence, `{/* claim: the-id *\/}`, which renders nothing.
 */
export function jsxClaims(source: string, file: string): ClaimInventory {
  const inventory: ClaimInventory = { pages: [], tests: [], problems: [] };
  const pattern = /\{\/\*\s*claim:\s*(\S+?)(?:\s+untested:\s*([\s\S]*?))?\s*\*\/\}/g;
  const text = source.replace(/<[^>]*>/g, (tag) => tag.replace(/[^\n]/g, ' '));
  for (const match of source.matchAll(pattern)) {
    const offset = match.index ?? 0;
    const untested = match[2]?.replace(/\s+/g, ' ').trim();
    inventory.pages.push({
      id: match[1] ?? '',
      file,
      line: lineAt(source, offset),
      sentence: sentenceBefore(text.slice(0, offset).replace(pattern, ' '), offset),
      ...(untested !== undefined ? { untested } : {}),
    });
  }
  return inventory;
}

/** The `@claim` tags of the TSDoc comments of a TypeScript source. */
export function tsdocClaims(source: string, file: string): ClaimInventory {
  const inventory: ClaimInventory = { pages: [], tests: [], problems: [] };
  for (const comment of source.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const start = comment.index ?? 0;
    const lines = comment[0]
      .replace(/^\/\*\*/, '')
      .replace(/\*\/$/, '')
      .split('\n');
    const text = lines
      .map((line) => line.replace(/^\s*\*\s?/, ''))
      .filter((line) => !/^\s*@claim\b/.test(line))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    let claimSeen = false;
    lines.forEach((line, index) => {
      const lineNumber = lineAt(source, start) + index;
      const tag = /@claim\b/.test(line) ? TSDOC_CLAIM_LINE.exec(line) : null;
      if (/@claim\b/.test(line) && tag === null) {
        inventory.problems.push(
          `${file}:${lineNumber}: a @claim tag must be alone on its line: "@claim the-id" or "@claim the-id untested: reason"`,
        );
        return;
      }
      if (tag !== null) {
        claimSeen = true;
        const untested = tag[2]?.trim();
        inventory.pages.push({
          id: tag[1] ?? '',
          file,
          line: lineNumber,
          sentence: text.length > 160 ? `${text.slice(0, 157)}...` : text,
          ...(untested !== undefined ? { untested } : {}),
        });
        if (untested === '') {
          inventory.problems.push(
            `${file}:${lineNumber}: claim ${tag[1] ?? ''} says "untested:" with no reason; give the reason after it`,
          );
        }
      } else if (claimSeen && line.replace(/^\s*\*?/, '').trim() !== '') {
        inventory.problems.push(
          `${file}:${lineNumber}: text after a @claim tag belongs to the tag and is hidden from the API pages; move the @claim lines to the end of the comment`,
        );
        claimSeen = false;
      }
    });
  }
  return inventory;
}

/** Where the parenthesis that closes an already open one is, skipping over strings. */
function closingParenthesis(text: string): number | undefined {
  let depth = 1;
  let quote: string | undefined;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quote !== undefined) {
      if (char === '\\') index += 1;
      else if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"' || char === '`') quote = char;
    else if (char === '(') depth += 1;
    else if (char === ')' && (depth -= 1) === 0) return index;
  }
  return undefined;
}

/** One `it`/`test`/`describe` title of a test file, with where its string starts. */
export interface TitleAt {
  title: string;
  /** Offset of the title's opening quote in the source. */
  offset: number;
  /** Offset just past its closing quote. */
  end: number;
}

/**
 * The titles of the `it`/`test`/`describe` calls in a test file's source, including table
 * tests written `it.each(table)('title %s', ...)`, whose title is kept with its placeholders,
 * and conditional ones written `it.skipIf(condition)('title', ...)` or `it.runIf(...)`.
 */
export function testTitlesAt(source: string): TitleAt[] {
  const titles: TitleAt[] = [];
  const literal = /^\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/;
  const call =
    /\b(?:it|test|describe)(?:\.(?:only|skip|concurrent|sequential|fixme|serial|parallel))?(\.each|\.skipIf|\.runIf)?\(/g;
  for (const match of source.matchAll(call)) {
    let at = (match.index ?? 0) + match[0].length;
    if (match[1] !== undefined) {
      // Skip the table or the condition, with its own brackets and strings, to the title after it.
      const end = closingParenthesis(source.slice(at));
      if (end === undefined || source[at + end + 1] !== '(') continue;
      at += end + 2;
    }
    const found = literal.exec(source.slice(at));
    if (found?.[2] === undefined) continue;
    const offset = at + found[0].length - found[2].length - 2;
    titles.push({
      title: found[2].replace(/\\(['"`\\])/g, '$1'),
      offset,
      end: at + found[0].length,
    });
  }
  return titles;
}

/** The titles of a test file (see {@link testTitlesAt}). */
export function testTitles(source: string): Set<string> {
  return new Set(testTitlesAt(source).map((entry) => entry.title));
}

/** The claim ids carried by the test titles of a test file. */
export function testClaims(source: string, file: string): ClaimInventory {
  const inventory: ClaimInventory = { pages: [], tests: [], problems: [] };
  for (const { title, offset } of testTitlesAt(source)) {
    for (const match of title.matchAll(TITLE_CLAIM)) {
      inventory.tests.push({ id: match[1] ?? '', file, line: lineAt(source, offset), title });
    }
  }
  return inventory;
}

const TEST_FILE = /\.(test|spec)\.(ts|tsx|mts|cts|js|mjs)$/;
const MARKDOWN_FILE = /\.mdx?$/;
/** Sources whose TSDoc is read: the packages' and the site's. */
const TSDOC_FILE = /^(packages\/[^/]+\/src|src)\/.*\.tsx?$/;
/** The checker's own example pages and tests, which hold broken ids on purpose. */
const IGNORED = /(^|\/)node_modules\/|^tests\/claims\/fixtures\//;

/** The files git knows (tracked or new, not ignored), from the repository root. */
export function repositoryFiles(root = repositoryRoot): string[] {
  return workingTreeFiles(root)
    .filter((file) => !IGNORED.test(file))
    .sort();
}

/** Every claim id of the pages and the test titles under `root`. */
export function collectClaims(
  root = repositoryRoot,
  files = repositoryFiles(root),
): ClaimInventory {
  const all: ClaimInventory = { pages: [], tests: [], problems: [] };
  for (const file of files) {
    let found: ClaimInventory | undefined;
    if (TEST_FILE.test(file)) found = testClaims(readFileSync(path.join(root, file), 'utf8'), file);
    else if (MARKDOWN_FILE.test(file)) {
      found = markdownClaims(readFileSync(path.join(root, file), 'utf8'), file);
    } else if (TSDOC_FILE.test(file)) {
      const source = readFileSync(path.join(root, file), 'utf8');
      found = tsdocClaims(source, file);
      if (file.endsWith('.tsx')) {
        const jsx = jsxClaims(source, file);
        found.pages.push(...jsx.pages);
        found.problems.push(...jsx.problems);
      }
    }
    if (found === undefined) continue;
    all.pages.push(...found.pages);
    all.tests.push(...found.tests);
    all.problems.push(...found.problems);
  }
  return all;
}

/** Every way the ids of the pages and of the test titles disagree; empty when they hold. */
export function claimProblems(inventory: ClaimInventory): string[] {
  const problems = [...inventory.problems];
  const byId = new Map<string, PageClaim>();
  const tested = new Set(inventory.tests.map((entry) => entry.id));
  for (const claim of inventory.pages) {
    const where = `${claim.file}:${claim.line}`;
    if (!CLAIM_ID.test(claim.id)) {
      problems.push(
        `${where}: claim id "${claim.id}" is not kebab-case; use lower-case words and digits joined by hyphens`,
      );
    }
    const first = byId.get(claim.id);
    if (first !== undefined) {
      problems.push(
        `${where}: claim id ${claim.id} is already used at ${first.file}:${first.line}; give this sentence an id of its own`,
      );
      continue;
    }
    byId.set(claim.id, claim);
    if (claim.untested === undefined && !tested.has(claim.id)) {
      problems.push(
        `${where}: no test title carries [claim:${claim.id}]; add it to the title of the test that checks "${claim.sentence}", or say "untested: <reason>" in the id`,
      );
    } else if (claim.untested !== undefined && tested.has(claim.id)) {
      problems.push(
        `${where}: claim ${claim.id} is marked untested but a test title carries it; drop the untested reason`,
      );
    }
  }
  for (const entry of inventory.tests) {
    if (!byId.has(entry.id)) {
      problems.push(
        `${entry.file}:${entry.line}: the title "${entry.title}" carries [claim:${entry.id}], which no page has; fix the id or remove it`,
      );
    }
  }
  return problems;
}

/** One claim with the tests that carry its id, for the report. */
export interface ClaimRow extends PageClaim {
  tests: TestClaim[];
}

/** The claims of the pages, sorted by file and line, each with its tests. */
export function claimRows(inventory: ClaimInventory): ClaimRow[] {
  const testsById = new Map<string, TestClaim[]>();
  for (const entry of inventory.tests) {
    testsById.set(entry.id, [...(testsById.get(entry.id) ?? []), entry]);
  }
  return inventory.pages
    .map((claim) => ({ ...claim, tests: testsById.get(claim.id) ?? [] }))
    .sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
}
