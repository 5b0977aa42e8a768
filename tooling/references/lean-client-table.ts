/**
 * The section "The lean client's rows" of docs/contributing-guide.md, written from the rows the
 * plugin is built from (src/plugins/lean-client/rows.ts), so the guide cannot list a row the
 * plugin lacks or miss one it has.
 */
import {
  LEAN_CLIENT_ROWS,
  type LeanClientRow,
  type LeanClientRule,
} from '../../src/plugins/lean-client/rows';

export const LEAN_CLIENT_SECTION_START = "### The lean client's rows";
/** The heading after the section: the generated part ends before it. */
export const LEAN_CLIENT_SECTION_END = '### Docusaurus internals the site depends on';

const BUNDLES: Record<LeanClientRow['bundle'], string> = {
  client: 'browser',
  server: 'server render',
  both: 'both',
};

/** Escapes what would end a table cell. */
const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

function how(rule: LeanClientRule): string {
  switch (rule.kind) {
    case 'replace-module':
      return `module replaced by \`${rule.replacement}\``;
    case 'alias':
      return `\`${rule.request}\` aliased to \`${rule.replacement}\``;
    case 'loader':
      return `loader \`${rule.loader}\``;
    case 'client-module':
      return `client module \`${rule.module}\``;
  }
}

function row(entry: LeanClientRow): string {
  const claims = (entry.claims ?? []).map((id) => ` <!-- claim: ${id} -->`).join('');
  const guard = entry.guard
    ? `\`lean-client-internals.test.ts\` ("${entry.id}")`
    : 'none: it reaches into nothing Docusaurus may move';
  const tests = entry.alsoTested ? `${guard}; ${entry.alsoTested}` : guard;
  const why = entry.keptForBudget
    ? `${entry.why}. It saves less than 1.5 KB and stays only because the pages' first load would exceed the JavaScript budget without it. <!-- claim: cg-lean-row-${entry.id}-budget untested: measured with one build per row, which no test can run -->`
    : entry.why;
  // A claim goes beside the tests that hold it.
  return `| \`${entry.id}\` | ${BUNDLES[entry.bundle]} | ${cell(entry.replaces)} | ${cell(how(entry.rule))} | ${cell(why)} | ${cell(tests)}${claims} |`;
}

/** The section, from its heading to the end of the table. */
export function leanClientSection(): string {
  return [
    LEAN_CLIENT_SECTION_START,
    '',
    'This table is generated from `src/plugins/lean-client/rows.ts` by `npm run generate:references`, and a unit test fails when it is stale. <!-- claim: cg-lean-client-table-generated --> The plugin builds its Rspack rules from the same rows, and `tests/unit/lean-client-internals.test.ts` runs the guard of each row that reaches into Docusaurus. <!-- claim: cg-lean-client-rules-from-rows --> A row stays only while it saves at least 1.5 KB of first-load JavaScript (gzipped) or 20 ms of main-thread time on a first visit, or while the pages would exceed the first-load budget without it, since each is paid again at every Docusaurus upgrade; measure it with a build that leaves it out. <!-- claim: cg-lean-client-row-threshold untested: a rule for contributors, measured by hand with one build per row -->',
    '',
    '| Row | Bundle | Replaces | How | Why | Tests |',
    '| --- | --- | --- | --- | --- | --- |',
    ...LEAN_CLIENT_ROWS.map(row),
    '',
  ].join('\n');
}
