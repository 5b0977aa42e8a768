/**
 * The claims manifests in tests/claims/pages/ stay true: every quoted sentence is still in its
 * page under the named heading, and every named test still exists in its file. The checker is
 * tested on a temporary page first, so a broken checker cannot pass the real manifests.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type ClaimsManifest,
  countClaims,
  loadManifests,
  problemsOf,
  sectionsOf,
  testTitles,
  tsdocInventory,
  tsdocSectionsOf,
} from '../claims/manifest.js';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'weft-claims-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

mkdirSync(path.join(scratch, 'docs'));
mkdirSync(path.join(scratch, 'tests'));
writeFileSync(
  path.join(scratch, 'docs/page.md'),
  [
    '---',
    'title: Page',
    '---',
    'Intro sentence.',
    '',
    '## Time limits',
    '',
    'Every call gives up',
    'after 60 seconds.',
    '',
    '```md',
    '## Not a heading',
    '```',
    '',
    '## Custom {#custom-anchor}',
    '',
    'Errors carry a code.',
  ].join('\n'),
);
writeFileSync(
  path.join(scratch, 'tests/limits.test.ts'),
  "describe('limits', () => {\n  it(\n    'gives up after 60 seconds',\n    () => {},\n  );\n  it(\"isn't slow\", () => {});\n});\n",
);

writeFileSync(
  path.join(scratch, 'docs/source.ts'),
  [
    '/** Runs things. */',
    'export class Runner {',
    '  /**',
    '   * Starts running.',
    '   *',
    '   * @throws `E_STOPPED` after',
    '   * stop.',
    '   */',
    '  start(): void {}',
    '}',
    '/** Options. */',
    'export type Config = {',
    '  options?: {',
    '    /** Most steps. Default 10. */',
    '    maxSteps?: number;',
    '  };',
    '};',
    '/** The limit. */',
    'export const LIMIT = 3;',
  ].join('\n'),
);

function manifest(claims: ClaimsManifest['claims']): ClaimsManifest {
  return { page: 'docs/page.md', complete: false, claims, file: 'page.json' };
}
const guard = { file: 'tests/limits.test.ts', name: 'gives up after 60 seconds' };

describe('the claims checker', () => {
  it('splits a page by heading anchors, ignoring headings inside code', () => {
    const sections = sectionsOf(
      '# A\ntext\n```\n## B\n```\n## C `d` e {#f}\nmore\n## Repeat\n## Repeat\n',
    );
    expect([...sections.keys()]).toEqual(['', 'a', 'f', 'repeat', 'repeat-1']);
    expect(sections.get('a')).toContain('## B');
  });

  it('splits a TypeScript source by the symbol each TSDoc comment documents', () => {
    const sections = tsdocSectionsOf(
      [
        '/** A. */',
        'export class A {',
        '  /** Made. */',
        '  constructor() {}',
        '  /**',
        '   * Does b.',
        '   */',
        '  b(): void {}',
        '}',
        '/** C. */',
        'export type C = { d?: {',
        '  /** E. */',
        '  e?: number } };',
        '/** F. */',
        'export const f = 1;',
      ].join('\n'),
    );
    expect([...sections.keys()]).toEqual(['A', 'A.constructor', 'A.b', 'C', 'C.d.e', 'f']);
    expect(sections.get('A.b')?.trim()).toBe('Does b.');
  });

  it('holds a manifest of a source file to its TSDoc, by symbol', () => {
    const source = (claims: ClaimsManifest['claims']): ClaimsManifest => ({
      ...manifest(claims),
      page: 'docs/source.ts',
    });
    expect(
      problemsOf(
        source([
          {
            id: 'a',
            section: 'Runner.start',
            quote: '@throws `E_STOPPED` after stop.',
            tests: [guard],
          },
          { id: 'b', section: 'Config.options.maxSteps', quote: 'Default 10.', tests: [guard] },
          { id: 'c', section: 'LIMIT', quote: 'The limit.', untested: 'why' },
        ]),
        scratch,
      ),
    ).toEqual([]);
    const problems = problemsOf(
      source([
        { id: 'a', section: 'Runner', quote: 'Default 10.', tests: [guard] },
        { id: 'b', section: 'Runner.stop', quote: 'Starts running.', tests: [guard] },
      ]),
      scratch,
    );
    expect(problems).toEqual([
      'page.json a: section #Runner of docs/source.ts no longer says "Default 10."',
      'page.json b: docs/source.ts has no section #Runner.stop',
    ]);
  });

  it('lists a package source file with its documented, claimed and undocumented symbols', () => {
    mkdirSync(path.join(scratch, 'packages/demo/src/inner'), { recursive: true });
    writeFileSync(
      path.join(scratch, 'packages/demo/src/inner/thing.ts'),
      [
        '/** Documented. */',
        'export function told(): void {}',
        'export const bare = 1, alsoBare = 2;',
        'export interface Shape {',
        '  /** A side. */',
        '  side: number;',
        '}',
        'function hidden(): void {}',
      ].join('\n'),
    );
    const claims: ClaimsManifest = {
      page: 'packages/demo/src/inner/thing.ts',
      complete: false,
      claims: [{ id: 'x', section: 'Shape.side', quote: 'A side.', untested: 'why' }],
      file: 'thing.json',
    };
    expect(tsdocInventory([claims], scratch)).toEqual([
      {
        file: 'packages/demo/src/inner/thing.ts',
        documented: ['told', 'Shape.side'],
        claimed: ['Shape.side'],
        undocumentedExports: ['bare', 'alsoBare', 'Shape'],
      },
    ]);
  });

  it('reads the title of a table test after its table', () => {
    const source =
      "describe.each([['a', f(1)], ['b)', g()]])('%s store', () => {\n  it.each(cases)(\n    'case %s', () => {});\n});";
    expect(testTitles(source)).toEqual(new Set(['%s store', 'case %s']));
  });

  it('reads the title of a conditional test after its condition', () => {
    const source =
      "it.skipIf(process.platform === 'win32')(\n  'runs (on POSIX)', () => {});\ndescribe.runIf(f(1))('only then', () => {});";
    expect(testTitles(source)).toEqual(new Set(['runs (on POSIX)', 'only then']));
  });

  it('reads test titles across lines and with escaped quotes', () => {
    expect(testTitles("it(\n  'two\\'s', () => {});\ndescribe(`x`, () => {})")).toEqual(
      new Set(["two's", 'x']),
    );
  });

  it('accepts a quote that wraps across lines in the page, under its section', () => {
    const claims = [
      {
        id: 'a',
        section: 'time-limits',
        quote: 'Every call gives up after 60 seconds.',
        tests: [guard],
      },
      { id: 'b', section: 'custom-anchor', quote: 'Errors carry a code.', untested: 'why' },
    ];
    expect(problemsOf(manifest(claims), scratch)).toEqual([]);
  });

  it('reports a sentence the page no longer says, or says under another heading', () => {
    const problems = problemsOf(
      manifest([
        { id: 'a', section: 'time-limits', quote: 'after 30 seconds.', tests: [guard] },
        { id: 'b', section: 'time-limits', quote: 'Errors carry a code.', tests: [guard] },
        { id: 'c', section: 'missing', quote: 'Intro sentence.', tests: [guard] },
      ]),
      scratch,
    );
    expect(problems).toHaveLength(3);
    expect(problems[0]).toContain('no longer says "after 30 seconds."');
    expect(problems[1]).toContain('#time-limits');
    expect(problems[2]).toContain('has no section #missing');
  });

  it('reports a missing test file, a renamed test, and a claim with neither tests nor reason', () => {
    const problems = problemsOf(
      manifest([
        {
          id: 'a',
          section: '',
          quote: 'Intro sentence.',
          tests: [{ ...guard, file: 'tests/gone.test.ts' }],
        },
        { id: 'b', section: '', quote: 'Intro sentence.', tests: [{ ...guard, name: 'gives up' }] },
        { id: 'c', section: '', quote: 'Intro sentence.' },
      ]),
      scratch,
    );
    expect(problems).toEqual([
      'page.json a: test file tests/gone.test.ts is missing',
      'page.json b: tests/limits.test.ts has no test titled "gives up"',
      'page.json c: give either tests or an untested reason, not both or neither',
    ]);
  });

  it('counts claims and covered claims per page', () => {
    const counts = countClaims([
      manifest([
        { id: 'a', section: '', quote: 'x', tests: [guard] },
        { id: 'b', section: '', quote: 'y', untested: 'why' },
      ]),
    ]);
    expect(counts).toEqual([{ page: 'docs/page.md', claims: 2, covered: 1, complete: false }]);
  });
});

const manifests = loadManifests();

describe('the claims manifests', () => {
  it('exist, one per page, with ids unique across them', () => {
    expect(manifests.length).toBeGreaterThan(0);
    const pages = manifests.map((entry) => entry.page);
    expect(new Set(pages).size).toBe(pages.length);
    const ids = manifests.flatMap((entry) => entry.claims.map((claim) => claim.id));
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });

  it.each(manifests.map((entry) => [entry.file, entry] as const))(
    '%s matches its page and its tests',
    (_file, entry) => {
      expect(problemsOf(entry)).toEqual([]);
    },
  );
});
