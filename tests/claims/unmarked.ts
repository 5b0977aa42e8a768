/**
 * The unmarked-claim detector: a sentence of the docs, a package README or the whitepaper that
 * looks like it states behaviour (it names a `WEFT_*` error code, a number with a unit, a
 * default, a limit, or what happens on failure) but carries no claim id right after it.
 *
 * Detection is by words, so it errs both ways: a sentence can state behaviour without these
 * words, and "fails" can describe a reader's mistake. A flagged sentence either gets a claim id
 * (with a test, or `untested: <reason>`) or is reworded. See the contributing guide.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  CONFIGURATION_PAGE_END,
  CONFIGURATION_PAGE_START,
} from '../../tooling/references/configuration-page';
import { ERRORS_PAGE_END, ERRORS_PAGE_START } from '../../tooling/references/errors-page';
import { proseOnly } from '@weft-internal/docs-model/claim-comments';
import { repositoryRoot } from './claims.js';

/** The words and figures that make a sentence a claim. */
export const CLAIM_SIGNALS: readonly RegExp[] = [
  /\bWEFT_[A-Z0-9_]+\b/,
  /\b\d[\d,.]*\s?(?:ms|s|seconds?|minutes?|hours?|KB|MB|GB|KiB|MiB|characters?|bytes?)\b/,
  /\bdefaults?\b|\bby default\b/i,
  /\bat (?:most|least)\b/i,
  /\blimit(?:s|ed)?\b/i,
  /\b(?:fails?|rejects?|throws?|times? out)\b/i,
];

/** The pages the detector reads: the docs, the package READMEs and the whitepaper. */
export const DETECTED_PAGES = /^(docs\/.*\.mdx?|packages\/[^/]+\/README\.md|whitepaper\/.*\.md)$/;

/**
 * The generated parts of the reference pages (npm run generate:references), from one heading to
 * another. Their text comes from the error registries and the options schema, which their own
 * tests hold to the code; a claim about an error code is a `@claim` tag above its registry entry.
 */
const GENERATED_PARTS: Record<string, [string, string]> = {
  'docs/reference/errors.md': [ERRORS_PAGE_START, ERRORS_PAGE_END],
  'docs/reference/configuration.md': [CONFIGURATION_PAGE_START, CONFIGURATION_PAGE_END],
};

/** The page with its generated part blanked out, lines kept. */
function withoutGeneratedPart(markdown: string, file: string): string {
  const part = GENERATED_PARTS[file];
  if (part === undefined) return markdown;
  const start = markdown.indexOf(`\n${part[0]}\n`);
  const end = markdown.indexOf(`\n${part[1]}\n`, start + 1);
  if (start === -1 || end === -1) return markdown;
  return (
    markdown.slice(0, start) +
    markdown.slice(start, end).replace(/[^\n]/g, ' ') +
    markdown.slice(end)
  );
}

const CLAIM_COMMENT = /<!--\s*claim:[\s\S]*?-->/g;
const MARK = '\uE000';

export interface UnmarkedSentence {
  file: string;
  line: number;
  sentence: string;
}

/**
 * The sentences of a page that match a signal and have no claim id after them. Code, front
 * matter, headings, import lines and JSX/HTML-only lines are not prose and are skipped; each
 * list item counts as its own text. A table row is one claim: an id anywhere in the row marks
 * the whole row, and a header row (the one above the `|---|` line) states nothing.
 */
export function unmarkedSentences(markdown: string, file: string): UnmarkedSentence[] {
  const prose = proseOnly(withoutGeneratedPart(markdown, file), true).replace(
    CLAIM_COMMENT,
    (comment) =>
      MARK.padEnd(comment.length, ' ').replace(/ /g, (space, index: number) =>
        comment[index] === '\n' ? '\n' : space,
      ),
  );
  const found: UnmarkedSentence[] = [];
  const lines = prose.split('\n');
  // Blocks: runs of lines that belong together (a paragraph, a list item, a table row).
  let block: { start: number; text: string } | undefined;
  const flush = () => {
    if (block !== undefined) found.push(...sentencesOf(block.text, block.start, file));
    block = undefined;
  };
  const separator = /^\|?[\s:|-]+\|?$/;
  lines.forEach((line, index) => {
    const trimmed = line.trim();
    const tableHeader = trimmed.startsWith('|') && separator.test(lines[index + 1]?.trim() ?? '');
    const skipped =
      trimmed === '' ||
      tableHeader ||
      /^#{1,6}\s/.test(trimmed) ||
      /^(import|export)\s/.test(trimmed) ||
      /^<[^>]*>?$|^<\/?[A-Za-z][^>]*>$|^\{\/\*.*\*\/\}$/.test(trimmed) ||
      separator.test(trimmed);
    if (skipped) {
      flush();
      return;
    }
    const starts = /^(\s*([-*+]|\d+\.)\s|\s*\||\s*>)/.test(line) || /^:::/.test(trimmed);
    if (starts || block === undefined) {
      flush();
      block = { start: index + 1, text: line };
    } else {
      block.text += `\n${line}`;
    }
    if (trimmed.startsWith('|')) flush();
  });
  flush();
  return found;
}

/** Stand-ins for the sentence ends inside code spans, which end no sentence: `'...'`, `a. b`. */
const CODE_ENDS: Record<string, string> = { '.': '\uE001', '!': '\uE002', '?': '\uE003' };
const maskCodeEnds = (text: string): string =>
  text.replace(/`[^`\n]*`/g, (span) => span.replace(/[.!?]/g, (end) => CODE_ENDS[end] ?? end));
const unmaskCodeEnds = (text: string): string =>
  text.replace(
    /[\uE001-\uE003]/g,
    (mark) => ({ '\uE001': '.', '\uE002': '!', '\uE003': '?' })[mark] ?? mark,
  );

function sentencesOf(source: string, startLine: number, file: string): UnmarkedSentence[] {
  const result: UnmarkedSentence[] = [];
  const text = maskCodeEnds(source);
  // A sentence ends at . ! or ? followed by a space or the end; a table row is one piece.
  const pieces = text.trimStart().startsWith('|')
    ? [text.replace(/\|/g, ' ')]
    : text.split(/(?<=[.!?][*_)\]`'"]*)\s+/);
  let line = startLine;
  let consumed = 0;
  const marked: boolean[] = [];
  const sentences: { text: string; line: number }[] = [];
  for (const piece of pieces) {
    const at = text.indexOf(piece, consumed);
    if (at >= 0) {
      // The sentence's line is where its first word is, after any id it follows.
      const lead = Math.max(0, piece.search(/[^\s\uE000]/));
      line = startLine + (text.slice(0, at + lead).match(/\n/g)?.length ?? 0);
      consumed = at + piece.length;
    }
    const stripped = piece.replace(/\s+/g, ' ').trim();
    if (stripped.startsWith(MARK) && sentences.length > 0) {
      // An id right after a sentence end belongs to the sentence before it.
      marked[sentences.length - 1] = true;
    }
    const body = stripped.replace(new RegExp(`^(${MARK}\\s*)+`), '');
    if (body === '') continue;
    sentences.push({ text: unmaskCodeEnds(body.replaceAll(MARK, '').trim()), line });
    marked.push(body.includes(MARK));
  }
  sentences.forEach((sentence, index) => {
    if (marked[index] === true) return;
    if (CLAIM_SIGNALS.some((signal) => signal.test(sentence.text))) {
      result.push({ file, line: sentence.line, sentence: sentence.text });
    }
  });
  return result;
}

/** The branch a pull request goes to: origin/main when the clone has it, else main. */
export function baseRevision(root = repositoryRoot): string | undefined {
  for (const ref of ['origin/main', 'main']) {
    try {
      execFileSync('git', ['rev-parse', '--verify', '--quiet', ref], { cwd: root, stdio: 'pipe' });
      return execFileSync('git', ['merge-base', 'HEAD', ref], {
        cwd: root,
        encoding: 'utf8',
      }).trim();
    } catch {
      // Not in this clone: try the next.
    }
  }
  return undefined;
}

/** A file as it stands at a revision, or "" when it did not exist there. */
function atRevision(revision: string, file: string, root: string): string {
  try {
    return execFileSync('git', ['show', `${revision}:${file}`], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch {
    return '';
  }
}

export interface UnmarkedReport {
  /** Unmarked sentences added or changed against the base: these fail the check. */
  changed: UnmarkedSentence[];
  /** Unmarked sentences the base already had: listed, not failed. */
  inherited: UnmarkedSentence[];
}

/**
 * The unmarked sentences of the detected pages, split into those new or reworded against the
 * base revision (a sentence whose text the base's same page does not have) and the rest. With
 * no base (a shallow checkout that fetched no main), nothing can be told apart, so every unmarked
 * sentence is listed as inherited rather than failed: the check cannot fail a change it cannot see.
 */
export function unmarkedReport(
  files: string[],
  root = repositoryRoot,
  base = baseRevision(root),
): UnmarkedReport {
  const report: UnmarkedReport = { changed: [], inherited: [] };
  for (const file of files.filter((name) => DETECTED_PAGES.test(name))) {
    const now = unmarkedSentences(readFileSync(path.join(root, file), 'utf8'), file);
    if (now.length === 0) continue;
    if (base === undefined) {
      report.inherited.push(...now);
      continue;
    }
    const before = new Set(
      unmarkedSentences(atRevision(base, file, root), file).map((entry) => entry.sentence),
    );
    for (const entry of now) {
      if (before.has(entry.sentence)) report.inherited.push(entry);
      else report.changed.push(entry);
    }
  }
  return report;
}
