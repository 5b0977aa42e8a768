/**
 * The answer table of the HTTP chat page lists what the runtime's server answers before the
 * route runs, beside the route's own answers. The server's statuses come from the error
 * registries: when the server gains a status for a code, the page needs a row for it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  loadErrorRegistries,
  type LoadedRegistry,
} from '@weft-internal/docs-model/error-registries';
import { statusesOf } from '../../tooling/references/errors-page';
import { codeRows, readDoc } from './support/doc-tables';

let registries: LoadedRegistry[];
beforeAll(async () => {
  registries = await loadErrorRegistries();
});

/** The answer table's rows: each status and the codes its "When" cell names. */
function answerRows(): Map<number, string[]> {
  const rows = new Map<number, string[]>();
  for (const [first, cells] of codeRows(readDoc('building-plugins/http-chat.md'))) {
    if (!/^\d{3}$/.test(first)) continue;
    const when = cells.at(-1) ?? '';
    rows.set(Number(first), [...new Set(when.match(/\bWEFT_[A-Z0-9_]+\b/g) ?? [])]);
  }
  return rows;
}

describe('the HTTP chat page’s answer table', () => {
  it('has a row naming WEFT_BAD_REQUEST for every status the server answers with it, and no other [claim:httpchat-server-answers] [claim:httpchat-row-501] [claim:httpchat-row-505]', () => {
    const core = registries.find((entry) => entry.exportName === 'CORE_ERRORS');
    const entry = core?.registry.codes.WEFT_BAD_REQUEST;
    expect(entry).toBeDefined();
    const listed = [...answerRows()]
      .filter(([, codes]) => codes.includes('WEFT_BAD_REQUEST'))
      .map(([status]) => status);
    expect(listed.sort()).toEqual(statusesOf(entry!).sort());
  });

  it('names each code in a row of a status that code is answered with [claim:httpchat-server-answers]', () => {
    const statusesByCode = new Map<string, number[]>();
    for (const { registry } of registries) {
      for (const [code, entry] of Object.entries(registry.codes)) {
        statusesByCode.set(code, statusesOf(entry));
      }
    }
    const wrong: string[] = [];
    for (const [status, codes] of answerRows()) {
      for (const code of codes) {
        const statuses = statusesByCode.get(code);
        if (statuses === undefined) wrong.push(`${status}: ${code} is no registered code`);
        else if (!statuses.includes(status)) {
          wrong.push(`${status}: ${code} is answered ${statuses.join(', ')}`);
        }
      }
    }
    expect(answerRows().size).toBeGreaterThan(10);
    expect(wrong).toEqual([]);
  });
});
