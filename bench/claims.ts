/**
 * Prints, per page, how many behavioural claims its manifest in tests/claims/pages/ lists and
 * how many of them a test guards. `--uncovered` also lists the claims no test checks, with why.
 * `--tsdoc` also lists every source file of the packages with the symbols its TSDoc documents,
 * how many of them a manifest quotes, and the exports that have no TSDoc at all.
 */
import { countClaims, loadManifests, tsdocInventory } from '../tests/claims/manifest.js';

const manifests = loadManifests();
const counts = countClaims(manifests);
const width = Math.max(4, ...counts.map((count) => count.page.length));
const row = (page: string, claims: string, covered: string, share: string, complete: string) =>
  `${page.padEnd(width)}  ${claims.padStart(6)}  ${covered.padStart(7)}  ${share.padStart(5)}  ${complete}`;
const percent = (covered: number, claims: number) =>
  claims === 0 ? '-' : `${Math.round((covered / claims) * 100)}%`;

console.log(row('page', 'claims', 'covered', 'share', 'manifest'));
for (const count of counts) {
  console.log(
    row(
      count.page,
      String(count.claims),
      String(count.covered),
      percent(count.covered, count.claims),
      count.complete ? 'complete' : 'partial',
    ),
  );
}
const claims = counts.reduce((sum, count) => sum + count.claims, 0);
const covered = counts.reduce((sum, count) => sum + count.covered, 0);
console.log(row('total', String(claims), String(covered), percent(covered, claims), ''));

if (process.argv.includes('--uncovered')) {
  console.log('\nClaims no test checks:');
  for (const manifest of manifests) {
    for (const claim of manifest.claims) {
      if ((claim.tests ?? []).length > 0) continue;
      console.log(`- ${manifest.page}#${claim.section} (${claim.id}): ${claim.untested ?? ''}`);
    }
  }
}

if (process.argv.includes('--tsdoc')) {
  const inventory = tsdocInventory(manifests);
  const fileWidth = Math.max(...inventory.map((entry) => entry.file.length));
  console.log(`\n${'source file'.padEnd(fileWidth)}  documented  claimed  undocumented exports`);
  for (const entry of inventory) {
    console.log(
      `${entry.file.padEnd(fileWidth)}  ${String(entry.documented.length).padStart(10)}  ${String(entry.claimed.length).padStart(7)}  ${entry.undocumentedExports.join(', ')}`,
    );
  }
  const sum = (count: (entry: (typeof inventory)[number]) => number) =>
    inventory.reduce((total, entry) => total + count(entry), 0);
  console.log(
    `${'total'.padEnd(fileWidth)}  ${String(sum((entry) => entry.documented.length)).padStart(10)}  ${String(sum((entry) => entry.claimed.length)).padStart(7)}  ${sum((entry) => entry.undocumentedExports.length)}`,
  );
}
