/**
 * Claims manifests: for each page, the sentences that state behaviour, quoted exactly, each
 * with the tests that would catch the behaviour changing (or the reason no test can). The
 * manifest is the link both ways: from a sentence to its test, and from a test (grep its name
 * in tests/claims/) to the sentences it guards. tests/unit/claims-manifests.test.ts holds the
 * manifests to the pages and test files; bench/claims.ts counts them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const repositoryRoot = path.resolve(__dirname, '../..');
export const manifestsDir = path.join(repositoryRoot, 'tests/claims/pages');

/** A test that guards a claim: its file from the repository root and its `it`/`describe` title. */
export interface GuardingTest {
  file: string;
  name: string;
}

export interface Claim {
  /** Unique across all manifests, so a test comment or a review can name it. */
  id: string;
  /** The heading anchor the sentence is under; "" for text before the first heading. */
  section: string;
  /** The sentence as it stands in the page's Markdown source (runs of whitespace may differ). */
  quote: string;
  /** The tests that fail when the behaviour stops matching the sentence. */
  tests?: GuardingTest[];
  /** Why no automated test checks it (a fact about the outside world, a recommendation). */
  untested?: string;
}

export interface ClaimsManifest {
  /**
   * The page, from the repository root: docs/..., packages/<name>/README.md, whitepaper/..., or
   * a TypeScript source file, whose TSDoc comments are the page (see {@link tsdocSectionsOf}).
   */
  page: string;
  /** True when every concrete claim of the page is listed, not only some. */
  complete: boolean;
  claims: Claim[];
  /** The manifest's own file name, filled in by the loader. */
  file: string;
}

export function loadManifests(dir = manifestsDir): ClaimsManifest[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => ({
      ...(JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as Omit<ClaimsManifest, 'file'>),
      file: name,
    }));
}

export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The anchor Docusaurus gives a heading: an explicit `{#id}`, else GitHub's slug (lower case,
 * punctuation dropped, spaces to hyphens), numbered when a page repeats a heading.
 */
export function headingAnchor(heading: string, seen: Map<string, number>): string {
  const explicit = /\{#([^}]+)\}\s*$/.exec(heading);
  if (explicit?.[1]) return explicit[1];
  const base = heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
  const count = seen.get(base) ?? 0;
  seen.set(base, count + 1);
  return count === 0 ? base : `${base}-${count}`;
}

/** The page's text under each heading anchor (code fences skipped when finding headings). */
export function sectionsOf(markdown: string): Map<string, string> {
  const sections = new Map<string, string>();
  const seen = new Map<string, number>();
  let anchor = '';
  let lines: string[] = [];
  let fence: string | undefined;
  const body = markdown.replace(/^---\n[\s\S]*?\n---\n/, '');
  for (const line of body.split('\n')) {
    const fenceMark = /^\s*(```|~~~)/.exec(line)?.[1];
    if (fenceMark && (fence === undefined || fence === fenceMark)) {
      fence = fence === undefined ? fenceMark : undefined;
    }
    const heading = fence === undefined ? /^#{1,6}\s+(.*)$/.exec(line) : null;
    if (heading?.[1] !== undefined) {
      sections.set(anchor, (sections.get(anchor) ?? '') + lines.join('\n'));
      anchor = headingAnchor(heading[1], seen);
      lines = [];
    } else {
      lines.push(line);
    }
  }
  sections.set(anchor, (sections.get(anchor) ?? '') + lines.join('\n'));
  return sections;
}

/**
 * The TSDoc comments of a TypeScript source file, by the symbol each documents: `Name` for a
 * top-level declaration, `Name.member` for a member of a class, interface or object type (so
 * `RuntimeOptions.maxSteps`), each comment's text without its `/**`, `*` and `*\/`
 * marks. This is how a manifest's `section` names a place in the API reference or in an
 * editor's hover, where a source file has no headings.
 */
export function tsdocSectionsOf(source: string, fileName = 'source.ts'): Map<string, string> {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const sections = new Map<string, string>();
  const add = (name: string, node: ts.Node): void => {
    const text = ts
      .getJSDocCommentsAndTags(node)
      .filter(ts.isJSDoc)
      .map((doc) =>
        doc
          .getText()
          .replace(/^\/\*\*|\*\/$/g, '')
          .split('\n')
          .map((line) => line.replace(/^\s*\* ?/, ''))
          .join('\n'),
      )
      .join('\n');
    if (text !== '') sections.set(name, `${sections.get(name) ?? ''}${text}\n`);
  };
  const visit = (node: ts.Node, owner: string | undefined): void => {
    const declared = (node as { name?: ts.Node }).name;
    const named =
      declared !== undefined &&
      (ts.isIdentifier(declared) ||
        ts.isStringLiteral(declared) ||
        ts.isPrivateIdentifier(declared))
        ? declared.text
        : undefined;
    let inner = owner;
    if (
      named !== undefined &&
      (ts.isDeclarationStatement(node) ||
        ts.isClassElement(node) ||
        ts.isTypeElement(node) ||
        ts.isVariableDeclaration(node))
    ) {
      inner = owner === undefined ? named : `${owner}.${named}`;
      // A variable's comment sits on its statement, two levels up.
      add(inner, ts.isVariableDeclaration(node) ? node.parent.parent : node);
    } else if (ts.isConstructorDeclaration(node) && owner !== undefined) {
      add(`${owner}.constructor`, node);
    }
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(file, undefined);
  return sections;
}

/** One source file's TSDoc, against the manifests: what `report:claims -- --tsdoc` prints. */
export interface TsdocInventory {
  /** The source file, from the repository root. */
  file: string;
  /** The symbols its comments document (see {@link tsdocSectionsOf}). */
  documented: string[];
  /** Those of them a manifest quotes a claim from. */
  claimed: string[];
  /** Its exported top-level declarations that carry no TSDoc comment. */
  undocumentedExports: string[];
}

/** Every TypeScript file under `packages/<name>/src`, with its documented and claimed symbols. */
export function tsdocInventory(
  manifests: ClaimsManifest[],
  root = repositoryRoot,
): TsdocInventory[] {
  const claimedSections = new Map<string, Set<string>>();
  for (const manifest of manifests) {
    const sections = claimedSections.get(manifest.page) ?? new Set<string>();
    for (const claim of manifest.claims) sections.add(claim.section);
    claimedSections.set(manifest.page, sections);
  }
  const files = readdirSync(path.join(root, 'packages'))
    .map((name) => path.join('packages', name, 'src'))
    .filter((dir) => existsSync(path.join(root, dir)))
    .flatMap((dir) =>
      readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts'))
        .map((file) => path.join(dir, file).split(path.sep).join('/')),
    )
    .sort();
  return files.map((file) => {
    const source = readFileSync(path.join(root, file), 'utf8');
    const sections = tsdocSectionsOf(source, file);
    const claimed = claimedSections.get(file) ?? new Set<string>();
    const undocumentedExports = ts
      .createSourceFile(file, source, ts.ScriptTarget.Latest, true)
      .statements.filter(
        (statement) =>
          ts.canHaveModifiers(statement) &&
          (ts.getModifiers(statement) ?? []).some(
            (modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword,
          ),
      )
      .flatMap((statement) =>
        ts.isVariableStatement(statement)
          ? statement.declarationList.declarations.map((declaration) => declaration.name.getText())
          : [(statement as { name?: ts.Node }).name?.getText() ?? ''],
      )
      .filter((name) => name !== '' && !sections.has(name));
    return {
      file,
      documented: [...sections.keys()],
      claimed: [...sections.keys()].filter((name) => claimed.has(name)),
      undocumentedExports,
    };
  });
}

/** The sections of a page: its headings' for Markdown, its symbols' for TypeScript. */
export function pageSections(page: string, text: string): Map<string, string> {
  return page.endsWith('.ts') ? tsdocSectionsOf(text, page) : sectionsOf(text);
}

/**
 * The titles of the `it`/`test`/`describe` calls in a test file's source, including table
 * tests written `it.each(table)('title %s', ...)`, whose title is kept with its placeholders,
 * and conditional ones written `it.skipIf(condition)('title', ...)` or `it.runIf(...)`.
 */
export function testTitles(source: string): Set<string> {
  const titles = new Set<string>();
  const literal = /^\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/;
  const call =
    /\b(?:it|test|describe)(?:\.(?:only|skip|concurrent|sequential))?(\.each|\.skipIf|\.runIf)?\(/g;
  for (const match of source.matchAll(call)) {
    let rest = source.slice((match.index ?? 0) + match[0].length);
    if (match[1] !== undefined) {
      // Skip the table or the condition, with its own brackets and strings, to the title after it.
      const end = closingParenthesis(rest);
      if (end === undefined || rest[end + 1] !== '(') continue;
      rest = rest.slice(end + 2);
    }
    const title = literal.exec(rest)?.[2];
    if (title !== undefined) titles.add(title.replace(/\\(['"`\\])/g, '$1'));
  }
  return titles;
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

/** Every way a manifest no longer matches its page or its tests; empty when it holds. */
export function problemsOf(manifest: ClaimsManifest, root = repositoryRoot): string[] {
  const problems: string[] = [];
  const where = (claim: Claim) => `${manifest.file} ${claim.id}`;
  const pagePath = path.join(root, manifest.page);
  if (!existsSync(pagePath)) return [`${manifest.file}: page ${manifest.page} does not exist`];
  const sections = pageSections(manifest.page, readFileSync(pagePath, 'utf8'));
  const titlesByFile = new Map<string, Set<string> | undefined>();
  for (const claim of manifest.claims) {
    const text = sections.get(claim.section);
    if (text === undefined) {
      problems.push(`${where(claim)}: ${manifest.page} has no section #${claim.section}`);
    } else if (!collapseWhitespace(text).includes(collapseWhitespace(claim.quote))) {
      problems.push(
        `${where(claim)}: section #${claim.section} of ${manifest.page} no longer says "${claim.quote}"`,
      );
    }
    const tests = claim.tests ?? [];
    if (tests.length > 0 === (claim.untested !== undefined)) {
      problems.push(
        `${where(claim)}: give either tests or an untested reason, not both or neither`,
      );
    }
    for (const test of tests) {
      if (!titlesByFile.has(test.file)) {
        const file = path.join(root, test.file);
        titlesByFile.set(
          test.file,
          existsSync(file) ? testTitles(readFileSync(file, 'utf8')) : undefined,
        );
      }
      const titles = titlesByFile.get(test.file);
      if (titles === undefined) problems.push(`${where(claim)}: test file ${test.file} is missing`);
      else if (!titles.has(test.name)) {
        problems.push(`${where(claim)}: ${test.file} has no test titled "${test.name}"`);
      }
    }
  }
  return problems;
}

export interface PageCount {
  page: string;
  claims: number;
  covered: number;
  complete: boolean;
}

/** Claims and covered claims per page, pages sorted by path. */
export function countClaims(manifests: ClaimsManifest[]): PageCount[] {
  return manifests
    .map((manifest) => ({
      page: manifest.page,
      claims: manifest.claims.length,
      covered: manifest.claims.filter((claim) => (claim.tests ?? []).length > 0).length,
      complete: manifest.complete,
    }))
    .sort((a, b) => (a.page < b.page ? -1 : a.page > b.page ? 1 : 0));
}
