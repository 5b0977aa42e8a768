/**
 * Writes the references that are generated from the code: the errors page and every package's
 * error-code union from the error registries, and the options and environment tables of the
 * configuration page from the runtime's schemas, and the contributing guide's table of the lean
 * client's rows from src/plugins/lean-client/rows.ts. The output is committed; unit tests fail
 * when it is stale (tests/unit/errors-registry.test.ts, tests/unit/configuration-reference.test.ts,
 * tests/unit/lean-client-table.test.ts).
 *
 * Run: npm run generate:references (after changing a registry, the options schema, the list
 * of environment variables or a lean client row). `--check` writes nothing and exits 1 when a file is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { generatedReferences } from '../tooling/references/generated-files';
import { REPOSITORY_ROOT } from '@weft-internal/docs-model/error-registries';
import { runWhenMain } from '../tooling/run-when-main';

async function generateReferences(): Promise<void> {
  const check = process.argv.includes('--check');
  const stale: string[] = [];
  for (const { file, text } of await generatedReferences()) {
    if (readFileSync(file, 'utf8') === text) continue;
    stale.push(relative(REPOSITORY_ROOT, file));
    if (!check) writeFileSync(file, text);
  }
  if (stale.length === 0) console.log('The generated references are up to date.');
  else if (check) {
    console.error(`Stale, run npm run generate:references: ${stale.join(', ')}`);
    process.exitCode = 1;
  } else console.log(`Wrote ${stale.join(', ')}`);
}

runWhenMain(import.meta.url, 'generate the references', generateReferences);
