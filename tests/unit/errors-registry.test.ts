/**
 * The error registries are the one place a code is explained (docs/reference/errors.md, "Core
 * codes" and "Package codes"): the code unions, their TSDoc and the page are generated from them
 * and must not be stale, the sources raise exactly the codes the registries hold, and every HTTP
 * status the packages answer has a section on the page. Packages are found by their
 * `src/errors.ts`, so a new package is checked without a change here.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  loadErrorRegistries,
  packagesWithErrorFiles,
  type LoadedRegistry,
} from '../../libs/docs-model/error-registries';
import { ENVIRONMENT_VARIABLES } from '../../tooling/references/environment-variables';
import { statusesOf } from '../../tooling/references/errors-page';
import { generatedReferences } from '../../tooling/references/generated-files';
import { readDoc } from './support/doc-tables';
import { packageSources } from './support/package-sources';

let registries: LoadedRegistry[];
beforeAll(async () => {
  registries = await loadErrorRegistries();
});

function registeredCodes(): Map<string, string> {
  const codes = new Map<string, string>();
  for (const { registry } of registries) {
    for (const code of Object.keys(registry.codes)) codes.set(code, registry.packageName);
  }
  return codes;
}

/**
 * Every quoted `'WEFT_...'` string in the code (not the comments) of the sources outside the
 * registries: the codes raised. Environment variables such as WEFT_LOG_LEVEL are not codes.
 */
function raisedCodes(): Map<string, string[]> {
  const registryFiles = new Set(registries.flatMap((r) => [r.registryFile, r.typeFile]));
  const variables = new Set(ENVIRONMENT_VARIABLES.map((variable) => variable.name));
  const raised = new Map<string, string[]>();
  for (const { path, text } of packageSources()) {
    if ([...registryFiles].some((file) => file.endsWith(path))) continue;
    const source = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    for (const [, code] of source.matchAll(/['"](WEFT_[A-Z0-9_]+)['"]/g)) {
      if (code === undefined || variables.has(code)) continue;
      raised.set(code, [...(raised.get(code) ?? []), path]);
    }
  }
  return raised;
}

describe('error registries', () => {
  it('are found for the core and every package with codes of its own', () => {
    const names = registries.map(({ registry }) => registry.packageName);
    expect(names[0]).toBe('@weft/core');
    expect(names).toEqual(expect.arrayContaining(['@weft/model-openai', '@weft/memory-sqlite']));
    expect(packagesWithErrorFiles().length).toBeGreaterThanOrEqual(registries.length - 1);
  });

  it('give each code to one package only', () => {
    const all = registries.flatMap(({ registry }) => Object.keys(registry.codes));
    expect(all.filter((code, index) => all.indexOf(code) !== index)).toEqual([]);
  });

  it('hold every code the sources raise [claim:stability-codes-closed] [claim:cg-references-checks]', () => {
    const known = registeredCodes();
    const missing = [...raisedCodes()].filter(([code]) => !known.has(code));
    expect(missing).toEqual([]);
  });

  it('hold no code that nothing raises [claim:stability-codes-closed] [claim:cg-references-checks]', () => {
    const raised = raisedCodes();
    expect(raised.size).toBeGreaterThan(30);
    const unused = [...registeredCodes().keys()].filter((code) => !raised.has(code));
    expect(unused).toEqual([]);
  });

  it('match the committed code unions and errors page (npm run generate:references) [claim:cg-references-checks]', async () => {
    const stale = (await generatedReferences())
      .filter(({ file, text }) => readFileSync(file, 'utf8') !== text)
      .map(({ file }) => file);
    expect(stale).toEqual([]);
  });
});

describe('errors reference page', () => {
  const headings = readDoc('reference/errors.md')
    .split('\n')
    .filter((line) => line.startsWith('#'))
    .map((line) => line.replace(/^#+\s*/, '').trim());

  it('has a section, the anchor of docsUrl, headed by each registered code [claim:stability-codes-closed] [claim:coord-readme-errors-listed]', () => {
    const missing = [...registeredCodes().keys()].filter((code) => !headings.includes(code));
    expect(missing).toEqual([]);
  });

  /**
   * The statuses the registries give, those the server answers by construction (408 from Node.js
   * itself), and every status the sources name in `status: 429`, `.status(404)` or
   * `answer(413, ...)`, so a new one needs a section before the tests pass.
   */
  it('has a section headed by each HTTP status the packages answer [claim:stability-http-public]', () => {
    const statuses = new Set<number>([408]);
    for (const { registry } of registries) {
      for (const entry of Object.values(registry.codes)) {
        for (const status of statusesOf(entry)) statuses.add(status);
      }
    }
    for (const { text } of packageSources()) {
      for (const [, status] of text.matchAll(/\b(?:status(?::\s*|\()|answer\(\s*)([45]\d\d)\b/g)) {
        statuses.add(Number(status));
      }
    }
    const missing = [...statuses].filter(
      (status) => !headings.some((heading) => heading.startsWith(`${status} `)),
    );
    expect(missing).toEqual([]);
  });
});
