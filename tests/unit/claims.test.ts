/**
 * Claims (tests/claims/claims.ts): every claim id beside a sentence of a page has a test whose
 * title carries it, or an untested reason; every id in a test title is in a page; ids are
 * unique and kebab-case. And no sentence added or reworded against the main branch states a
 * default, a limit, an error code or a failure without an id (tests/claims/unmarked.ts).
 * The checker and the detector are tested on temporary pages first, so a broken checker cannot
 * pass the real ones.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  claimProblems,
  claimRows,
  collectClaims,
  jsxClaims,
  markdownClaims,
  repositoryFiles,
  testClaims,
  testTitles,
  tsdocClaims,
} from '../claims/claims';
import { baseRevision, unmarkedReport, unmarkedSentences } from '../claims/unmarked';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'weft-claims-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function write(file: string, text: string): void {
  mkdirSync(path.dirname(path.join(scratch, file)), { recursive: true });
  writeFileSync(path.join(scratch, file), text);
}

// Test sources are assembled from pieces so that this file's own titles carry no fixture ids.
const call = (name: string, title: string) => `${name}(${title}, () => {});`;

describe('the claims checker', () => {
  it('reads Markdown ids with the sentence before them, several after one sentence, skipping code', () => {
    const found = markdownClaims(
      [
        '---',
        'title: x <!-- claim: in-front-matter -->',
        '---',
        'Intro. Every call gives up',
        'after 60 seconds. <!-- claim: gives-up --> <!-- claim: gives-up-too -->',
        '',
        '```md',
        'Shown. <!-- claim: in-code -->',
        '```',
        'Inline `<!-- claim: in-span -->` code.',
        '',
        '| a | b <!-- claim: cell untested: a fact about npm -->',
      ].join('\n'),
      'docs/page.md',
    );
    expect(found.pages).toEqual([
      {
        id: 'gives-up',
        file: 'docs/page.md',
        line: 5,
        sentence: 'Every call gives up after 60 seconds.',
      },
      {
        id: 'gives-up-too',
        file: 'docs/page.md',
        line: 5,
        sentence: 'Every call gives up after 60 seconds.',
      },
      {
        id: 'cell',
        file: 'docs/page.md',
        line: 12,
        sentence: '| a | b',
        untested: 'a fact about npm',
      },
    ]);
    expect(found.problems).toEqual([]);
  });

  it('reads TSDoc claim tags and refuses text after them, which TypeDoc would hide', () => {
    const found = tsdocClaims(
      [
        '/**',
        ' * Gives up after 60 seconds.',
        ' * @throws `E_LATE` then.',
        ' * @claim gives-up',
        ' * @claim throws-late untested: why',
        ' */',
        'export function f(): void {}',
        '/**',
        ' * Summary.',
        ' * @claim too-early',
        ' * More text, swallowed by the tag.',
        ' */',
        'export const g = 1;',
        '/** One line. @claim inline-tag */',
      ].join('\n'),
      'src/x.ts',
    );
    expect(found.pages.map((claim) => [claim.id, claim.line, claim.untested])).toEqual([
      ['gives-up', 4, undefined],
      ['throws-late', 5, 'why'],
      ['too-early', 10, undefined],
    ]);
    expect(found.pages[0]?.sentence).toBe('Gives up after 60 seconds. @throws `E_LATE` then.');
    expect(found.problems).toEqual([
      'src/x.ts:11: text after a @claim tag belongs to the tag and is hidden from the API pages; move the @claim lines to the end of the comment',
      'src/x.ts:14: a @claim tag must be alone on its line: "@claim the-id" or "@claim the-id untested: reason"',
    ]);
  });

  it('reads a claim comment of its own above a registry entry, and JSX comments in a site page', () => {
    const registry = tsdocClaims(
      '  /** @claim code-cause */\n  /** @claim code-fix untested: why */\n  WEFT_X: {},\n',
      'packages/p/src/errors.ts',
    );
    expect(registry.pages.map((claim) => [claim.id, claim.line, claim.untested])).toEqual([
      ['code-cause', 1, undefined],
      ['code-fix', 2, 'why'],
    ]);
    expect(registry.problems).toEqual([]);
    const page = [
      '<p className="lead">',
      "  Every package is tested.{' '}",
      '  {/* claim: page-tested */}',
      '  Each <code>card</code> says what it needs. {/* claim: page-card untested: why */}',
      '</p>',
    ].join('\n');
    expect(
      jsxClaims(page, 'src/pages/x.tsx').pages.map((claim) => [
        claim.id,
        claim.line,
        claim.sentence,
      ]),
    ).toEqual([
      ['page-tested', 3, "Every package is tested.{' '}"],
      ['page-card', 4, 'Each card says what it needs.'],
    ]);
  });

  it('reads ids from test titles, several per title, with the line of the title', () => {
    const source = [
      "describe('limits', () => {",
      `  ${call('it', "\n    'gives up after 60 seconds [claim:gives-up] [claim:other]'")}`,
      `  ${call('it.each([[1], [2]])', "'case %s [claim:cases]'")}`,
      `  ${call('it', "'no id'")}`,
      '});',
    ].join('\n');
    expect(testClaims(source, 't.test.ts').tests).toEqual([
      {
        id: 'gives-up',
        file: 't.test.ts',
        line: 3,
        title: 'gives up after 60 seconds [claim:gives-up] [claim:other]',
      },
      {
        id: 'other',
        file: 't.test.ts',
        line: 3,
        title: 'gives up after 60 seconds [claim:gives-up] [claim:other]',
      },
      { id: 'cases', file: 't.test.ts', line: 4, title: 'case %s [claim:cases]' },
    ]);
  });

  it('reads the titles of table, conditional and multi-line tests', () => {
    const source = [
      call("describe.each([['a', f(1)], ['b)', g()]])", "'%s store'"),
      call("it.skipIf(process.platform === 'win32')", "\n  'runs (on POSIX)'"),
      call('it', "\n  'two\\'s'"),
      call('test.describe', '`x`'),
    ].join('\n');
    expect(testTitles(source)).toEqual(new Set(['%s store', 'runs (on POSIX)', "two's", 'x']));
  });

  it('reports each way pages and tests disagree, naming file and line and the fix [claim:contrib-claims-checked]', () => {
    write('docs/a.md', 'Fails fast. <!-- claim: fails-fast -->\nSlow. <!-- claim: no-test -->\n');
    write(
      'docs/b.md',
      'Again. <!-- claim: fails-fast -->\nBad. <!-- claim: Bad_Id untested: x -->\nOk. <!-- claim: both untested: why -->\n',
    );
    write(
      'packages/p/test/a.test.ts',
      [
        call('it', "'fails fast [claim:fails-fast]'"),
        call('it', "'ghost [claim:ghost]'"),
        call('it', "'both [claim:both]'"),
      ].join('\n'),
    );
    const files = ['docs/a.md', 'docs/b.md', 'packages/p/test/a.test.ts'];
    expect(claimProblems(collectClaims(scratch, files))).toEqual([
      'docs/a.md:2: no test title carries [claim:no-test]; add it to the title of the test that checks "Slow.", or say "untested: <reason>" in the id',
      'docs/b.md:1: claim id fails-fast is already used at docs/a.md:1; give this sentence an id of its own',
      'docs/b.md:2: claim id "Bad_Id" is not kebab-case; use lower-case words and digits joined by hyphens',
      'docs/b.md:3: claim both is marked untested but a test title carries it; drop the untested reason',
      'packages/p/test/a.test.ts:2: the title "ghost [claim:ghost]" carries [claim:ghost], which no page has; fix the id or remove it',
    ]);
  });

  it('passes pages and tests that agree, and lists each claim with its tests', () => {
    write(
      'docs/c.md',
      'Fails fast. <!-- claim: c-fails -->\nUntested. <!-- claim: c-npm untested: npm -->\n',
    );
    write('src/c.ts', '/**\n * Default 10.\n * @claim c-default\n */\nexport const c = 10;\n');
    write(
      'tests/c.test.ts',
      call('it', "'fails fast and defaults to 10 [claim:c-fails] [claim:c-default]'"),
    );
    const inventory = collectClaims(scratch, ['docs/c.md', 'src/c.ts', 'tests/c.test.ts']);
    expect(claimProblems(inventory)).toEqual([]);
    expect(claimRows(inventory).map((row) => [row.id, row.tests.map((test) => test.file)])).toEqual(
      [
        ['c-fails', ['tests/c.test.ts']],
        ['c-npm', []],
        ['c-default', ['tests/c.test.ts']],
      ],
    );
  });
});

describe('the unmarked-claim detector', () => {
  it('flags a sentence naming an error code, a figure, a default, a limit or a failure without an id, a table row as one [claim:contrib-unmarked-flagged] [claim:contrib-unmarked-table-rows]', () => {
    const page = [
      'Calls give up after 60 seconds. Plain prose here.',
      'It answers `413` with `WEFT_BODY_TOO_LARGE`. <!-- claim: too-large -->',
      'The default is `always`. Messages are at most 4 KB.',
      '',
      '## A heading with a limit',
      '',
      '- A list item that throws.',
      '',
      '| Option | Default |',
      '| --- | --- |',
      '| `x` | 10 ms <!-- claim: x-default --> |',
      '| `y` | fails at 5 s | Retry. |',
      '',
      "It fails with `'...'` quoted. Then `a. b` is one span.",
      '',
      '```ts',
      'throw new Error("fails");',
      '```',
    ].join('\n');
    expect(
      unmarkedSentences(page, 'docs/p.md').map((entry) => [entry.line, entry.sentence]),
    ).toEqual([
      [1, 'Calls give up after 60 seconds.'],
      [3, 'The default is `always`.'],
      [3, 'Messages are at most 4 KB.'],
      [7, '- A list item that throws.'],
      [12, '`y` fails at 5 s Retry.'],
      [14, "It fails with `'...'` quoted."],
    ]);
  });

  it('counts a figure in each unit the guide lists as a claim [claim:contrib-unmarked-flagged]', () => {
    const units = ['ms', 's', 'seconds', 'minutes', 'hours', 'KB', 'KiB', 'MB', 'MiB', 'GB'];
    for (const unit of [...units, 'characters', 'bytes']) {
      expect(unmarkedSentences(`It keeps 5 ${unit}.`, 'docs/p.md'), unit).toHaveLength(1);
    }
    expect(unmarkedSentences('It keeps 5 apples.', 'docs/p.md')).toEqual([]);
  });

  it('reads error codes, figures in digits, "at least", "limit" and the words in the forms the guide gives, not their other forms [claim:contrib-unmarked-flagged]', () => {
    const flagged = (sentence: string): boolean =>
      unmarkedSentences(sentence, 'docs/p.md').length === 1;
    for (const sentence of [
      'It waits 5s.',
      'Calls fail.',
      'The hook rejects it.',
      'Reads throw.',
      'A call may time out.',
      'Some calls times out.',
      'It answers with `WEFT_BODY_TOO_LARGE`.',
      'It keeps at least one.',
      'Each queue has a limit.',
    ]) {
      expect(flagged(sentence), sentence).toBe(true);
    }
    for (const sentence of [
      'It waits five seconds.',
      'It keeps a 30-second window.',
      'The build failed.',
      'The promise is rejected.',
      'An error is thrown.',
    ]) {
      expect(flagged(sentence), sentence).toBe(false);
    }
  });

  it('fails only sentences added or reworded against the base, listing the rest [claim:contrib-unmarked-against-main]', () => {
    const repo = path.join(scratch, 'repo');
    mkdirSync(path.join(repo, 'docs'), { recursive: true });
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: repo, encoding: 'utf8', stdio: 'pipe' }).trim();
    git('init', '-q');
    writeFileSync(
      path.join(repo, 'docs/p.md'),
      'Old limit of 5 s. Other old sentence that fails.\n',
    );
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'base');
    const base = git('rev-parse', 'HEAD');
    writeFileSync(
      path.join(repo, 'docs/p.md'),
      'Old limit of 5 s. Other old sentence that now rejects. New default of 3.\n',
    );
    const report = unmarkedReport(['docs/p.md'], repo, base);
    expect(report.inherited.map((entry) => entry.sentence)).toEqual(['Old limit of 5 s.']);
    expect(report.changed.map((entry) => entry.sentence)).toEqual([
      'Other old sentence that now rejects.',
      'New default of 3.',
    ]);
  });

  it('compares with origin/main when the clone has it, and with a local main otherwise [claim:contrib-unmarked-against-main]', () => {
    const repo = path.join(scratch, 'bases');
    mkdirSync(path.join(repo, 'docs'), { recursive: true });
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: repo, encoding: 'utf8', stdio: 'pipe' }).trim();
    const commit = (text: string) => {
      writeFileSync(path.join(repo, 'docs/p.md'), text);
      git('add', '-A');
      git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', text);
      return git('rev-parse', 'HEAD');
    };
    git('init', '-q', '-b', 'main');
    commit('Old limit of 5 s.\n');
    git('checkout', '-q', '-b', 'work');
    // The branch adds a sentence that origin/main already has (merged there) and main does not.
    const merged = commit('Old limit of 5 s. New limit of 9 s.\n');
    git('update-ref', 'refs/remotes/origin/main', merged);
    const changed = () => unmarkedReport(['docs/p.md'], repo).changed.map((e) => e.sentence);
    expect(baseRevision(repo)).toBe(merged);
    expect(changed()).toEqual([]);
    git('update-ref', '-d', 'refs/remotes/origin/main');
    expect(changed()).toEqual(['New limit of 9 s.']);
  });

  it('fails no sentence in a checkout that has no main to compare with, listing them all [claim:contrib-unmarked-needs-main]', () => {
    const repo = path.join(scratch, 'no-main');
    mkdirSync(path.join(repo, 'docs'), { recursive: true });
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: repo, encoding: 'utf8', stdio: 'pipe' }).trim();
    git('init', '-q', '-b', 'work');
    writeFileSync(path.join(repo, 'docs/p.md'), 'A new limit of 5 s.\n');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'one commit');
    const report = unmarkedReport(['docs/p.md'], repo);
    expect(report.changed).toEqual([]);
    expect(report.inherited.map((entry) => entry.sentence)).toEqual(['A new limit of 5 s.']);
  });
});

describe('the claims of this repository', () => {
  const inventory = collectClaims();

  it('agree between pages and test titles', () => {
    expect(claimProblems(inventory)).toEqual([]);
  });

  it('leave no sentence added or reworded against main that states behaviour without an id', () => {
    const report = unmarkedReport(repositoryFiles());
    if (report.inherited.length > 0) {
      console.info(
        `${report.inherited.length} sentences older than this branch look like claims without an id (npm run bench -- claims --unmarked).`,
      );
    }
    expect(
      report.changed.map((entry) => `${entry.file}:${entry.line}: ${entry.sentence}`),
      'Give each sentence a claim id (<!-- claim: id --> after it, the id in its test title, or "untested: <reason>"), or reword it; see the contributing guide, "Every claim has a test".',
    ).toEqual([]);
  });
});
