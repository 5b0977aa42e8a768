/**
 * The error registries are the one place a code is explained (docs/reference/errors.md, "Core
 * codes" and "Package codes"): the code unions, their TSDoc and the page are generated from them
 * and must not be stale, the sources raise exactly the codes the registries hold, and every HTTP
 * status the packages answer has a section on the page. Packages are found by their
 * `src/errors.ts`, so a new package is checked without a change here.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  loadErrorRegistries,
  packagesWithErrorFiles,
  REPOSITORY_ROOT,
  type LoadedRegistry,
} from '@weft-internal/docs-model/error-registries';
import { ENVIRONMENT_VARIABLES } from '../../tooling/references/environment-variables';
import { statusesOf } from '../../tooling/references/errors-page';
import { generatedReferences } from '../../tooling/references/generated-files';
import { readDoc } from './support/doc-tables';
import { raisersByCode } from './support/error-raisers';
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
  const registryFiles = new Set(registries.map((r) => r.registryFile));
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

/**
 * Each `new …Error('WEFT_…', …, { status: <number> })` of the sources outside the registries: a
 * code thrown with an HTTP status written beside it, and where.
 */
function thrownStatuses(): { code: string; status: number; where: string }[] {
  const found: { code: string; status: number; where: string }[] = [];
  for (const { path, text } of packageSources()) {
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (
        ts.isNewExpression(node) &&
        /Error$/.test(node.expression.getText(file)) &&
        node.arguments?.[0] !== undefined &&
        ts.isStringLiteral(node.arguments[0]) &&
        node.arguments[0].text.startsWith('WEFT_')
      ) {
        const code = node.arguments[0].text;
        for (const argument of node.arguments.slice(1)) {
          if (!ts.isObjectLiteralExpression(argument)) continue;
          for (const property of argument.properties) {
            if (
              ts.isPropertyAssignment(property) &&
              property.name.getText(file) === 'status' &&
              ts.isNumericLiteral(property.initializer)
            ) {
              const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
              found.push({
                code,
                status: Number(property.initializer.text),
                where: `${path}:${line}`,
              });
            }
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
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

  it('hold every code the sources raise [claim:stability-codes-closed] [claim:cg-references-checks] [claim:errors-list-complete]', () => {
    const known = registeredCodes();
    const missing = [...raisedCodes()].filter(([code]) => !known.has(code));
    expect(missing).toEqual([]);
  });

  it('hold no code that nothing raises [claim:stability-codes-closed] [claim:cg-references-checks] [claim:errors-list-complete]', () => {
    const raised = raisedCodes();
    expect(raised.size).toBeGreaterThan(30);
    const unused = [...registeredCodes().keys()].filter((code) => !raised.has(code));
    expect(unused).toEqual([]);
  });

  /**
   * The memory-provider contract of `@weft/testing` names the codes a provider must raise, to
   * check them: those files expect codes and raise none.
   */
  const EXPECTING_FILES = [
    'packages/testing/src/memory-contract-inputs.ts',
    'packages/testing/src/memory-provider-contract.ts',
  ];

  function raisersInSources(): Map<string, Set<string>> {
    const skip = new Set([
      ...registries.map((r) => relative(REPOSITORY_ROOT, r.registryFile)),
      ...EXPECTING_FILES,
    ]);
    const variables = new Set(ENVIRONMENT_VARIABLES.map((variable) => variable.name));
    return raisersByCode(packageSources(), skip, variables);
  }

  it('list, for each code, exactly the functions of the sources that raise it [claim:cg-error-raisers]', () => {
    const found = raisersInSources();
    const wrong: string[] = [];
    for (const { registry } of registries) {
      for (const [code, entry] of Object.entries(registry.codes)) {
        const actual = found.get(code) ?? new Set<string>();
        for (const raiser of entry.raisers) {
          if (!actual.has(raiser)) wrong.push(`${code}: listed ${raiser} does not raise it`);
        }
        for (const raiser of actual) {
          if (!entry.raisers.includes(raiser)) wrong.push(`${code}: ${raiser} raises it, unlisted`);
        }
      }
    }
    expect(found.size).toBeGreaterThan(30);
    expect(wrong).toEqual([]);
  });

  it('are named for their codes’ prefix, beside a <Name>ErrorCode union and a <Name>Error class that extends WeftError<<Name>ErrorCode> and takes (code, message, options) [claim:cg-error-style] [claim:cg-references-generated]', () => {
    const sources = packageSources();
    const misnamed: string[] = [];
    for (const { directory, registry, exportName, registryFile } of registries) {
      const prefix =
        exportName === 'CORE_ERRORS' ? 'WEFT_' : `WEFT_${exportName.replace(/_ERRORS$/, '')}_`;
      for (const code of Object.keys(registry.codes)) {
        if (!code.startsWith(prefix)) misnamed.push(`${exportName}: ${code}`);
      }
      const name = /^export type (\w+)ErrorCode =/m.exec(readFileSync(registryFile, 'utf8'))?.[1];
      if (name === undefined) {
        misnamed.push(`${registryFile}: no <Name>ErrorCode union`);
        continue;
      }
      // The class may take the union as a type parameter, as the core's `WeftError<Code>` does.
      // Every other package's class extends it with its own union; create-weft, which depends on
      // no Weft package, copies its fields instead (packages/create-weft/test/errors.test.ts).
      const extendsCore = directory !== 'core' && directory !== 'create-weft';
      const heritage = extendsCore ? `\\s+extends WeftError<${name}ErrorCode>\\s*` : '[^{]*';
      const shape = new RegExp(
        `export class ${name}Error\\b${heritage}\\{[\\s\\S]*?constructor\\(\\s*code: (?:${name}ErrorCode|Code),\\s*message: string,\\s*options\\b`,
      );
      const own = sources.filter(({ path }) => path.startsWith(`packages/${directory}/src/`));
      if (!own.some(({ text }) => shape.test(text))) {
        misnamed.push(
          `packages/${directory}: no class ${name}Error${extendsCore ? ` extending WeftError<${name}ErrorCode>` : ''} taking (code, message, options)`,
        );
      }
    }
    expect(misnamed).toEqual([]);
  });

  // Every generated file is formatted with Prettier, the errors page among them: on a loaded
  // two-core machine that once took longer than the default deadline beside other test files.
  it('state the HTTP status each code is thrown with, where the sources give one [claim:cg-error-status-matches]', () => {
    const registered = new Map<string, readonly number[]>();
    for (const { registry } of registries) {
      for (const [code, entry] of Object.entries(registry.codes)) {
        if (entry.status !== undefined) registered.set(code, [entry.status].flat());
      }
    }
    const thrown = thrownStatuses();
    const wrong = thrown
      .filter(({ code, status }) => !(registered.get(code) ?? []).includes(status))
      .map(
        ({ code, status, where }) =>
          `${where}: throws ${code} with status ${status}; its registry entry says ${registered.get(code)?.join(' or ') ?? 'none'}`,
      );
    // The sources throw many codes with a status literal: the check reads them.
    expect(thrown.length).toBeGreaterThan(10);
    expect(wrong).toEqual([]);
  });

  it(
    'match the committed code unions and errors page (npm run generate:references) [claim:cg-references-generated] [claim:cg-references-checks] [claim:cfg-generated-checked]',
    {
      timeout: 90_000,
    },
    async () => {
      const stale = (await generatedReferences())
        .filter(({ file, text }) => readFileSync(file, 'utf8') !== text)
        .map(({ file }) => file);
      expect(stale).toEqual([]);
    },
  );
});

describe('errors reference page', () => {
  const headings = readDoc('reference/errors.md')
    .split('\n')
    .filter((line) => line.startsWith('#'))
    .map((line) => line.replace(/^#+\s*/, '').trim());

  it('has a section, the anchor of docsUrl, headed by each registered code [claim:stability-codes-closed] [claim:coord-readme-errors-listed] [claim:trouble-errors-one-entry]', () => {
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
