/**
 * Prints the claims of the pages, derived from the two places they live (tests/claims/claims.ts):
 * the claim ids beside the sentences of the docs, READMEs, whitepaper and TSDoc, and the same
 * ids in test titles. Per page: how many claims, how many a test guards, how many are untested.
 *
 * `--list` also prints every claim with its sentence and the tests that carry its id;
 * `--uncovered` the untested claims with their reasons; `--unmarked` the sentences the
 * unmarked-claim detector flags (tests/claims/unmarked.ts), those new on this branch first.
 */
import { claimRows, collectClaims, repositoryFiles } from '../tests/claims/claims';
import { unmarkedReport } from '../tests/claims/unmarked';

const rows = claimRows(collectClaims());
const pages = [...new Set(rows.map((row) => row.file))];
const width = Math.max(4, ...pages.map((page) => page.length));
const line = (page: string, claims: string, tested: string, untested: string, share: string) =>
  `${page.padEnd(width)}  ${claims.padStart(6)}  ${tested.padStart(6)}  ${untested.padStart(8)}  ${share.padStart(5)}`;
const percent = (part: number, whole: number) =>
  whole === 0 ? '-' : `${Math.round((part / whole) * 100)}%`;

console.log(line('page', 'claims', 'tested', 'untested', 'share'));
for (const page of pages) {
  const own = rows.filter((row) => row.file === page);
  const tested = own.filter((row) => row.tests.length > 0).length;
  console.log(
    line(
      page,
      String(own.length),
      String(tested),
      String(own.length - tested),
      percent(tested, own.length),
    ),
  );
}
const tested = rows.filter((row) => row.tests.length > 0).length;
console.log(
  line(
    'total',
    String(rows.length),
    String(tested),
    String(rows.length - tested),
    percent(tested, rows.length),
  ),
);

if (process.argv.includes('--list')) {
  for (const row of rows) {
    console.log(`\n${row.file}:${row.line} ${row.id}\n  "${row.sentence}"`);
    for (const test of row.tests) console.log(`  - ${test.file}:${test.line} ${test.title}`);
    if (row.untested !== undefined) console.log(`  untested: ${row.untested}`);
  }
}

if (process.argv.includes('--uncovered')) {
  console.log('\nClaims no test checks:');
  for (const row of rows.filter((entry) => entry.tests.length === 0)) {
    console.log(`- ${row.file}:${row.line} (${row.id}): ${row.untested ?? ''}`);
  }
}

if (process.argv.includes('--unmarked')) {
  const report = unmarkedReport(repositoryFiles());
  console.log(
    `\nSentences that look like claims but carry no id, new on this branch (these fail):`,
  );
  for (const entry of report.changed)
    console.log(`- ${entry.file}:${entry.line}: ${entry.sentence}`);
  console.log(`\nOlder ones (${report.inherited.length}), listed, not failed:`);
  for (const entry of report.inherited)
    console.log(`- ${entry.file}:${entry.line}: ${entry.sentence}`);
}
