/**
 * The environment variables table of the configuration reference (docs/reference/configuration.md,
 * "Environment variables") is generated from one list, tooling/references/environment-variables.ts.
 * These checks hold the list to the code: every variable the packages' sources or create-weft's
 * templates read is on it, every variable on it is read where it says, and its default is the
 * one the reading file uses.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '@weft-internal/docs-model/error-registries';
import { EXAMPLES_VARIABLES } from '../../tooling/references/configuration-page';
import { defaultOf, ENVIRONMENT_VARIABLES } from '../../tooling/references/environment-variables';
import { codeRows, readDoc } from './support/doc-tables';
import { packageFiles, packageSources, type SourceFile } from './support/package-sources';

/** Drops comments, where TSDoc examples show `process.env.X` that nothing runs. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

/**
 * `process.env.X`, `process.env['X']`, and `env.X` / `env['X']` on a passed-in environment, for
 * upper-case names and the lower-case `npm_*` ones package managers set.
 */
const READ =
  /\benv(?:\.([A-Z][A-Z0-9_]*|npm_[a-z0-9_]+)\b|\[\s*['"]([A-Z][A-Z0-9_]*|npm_[a-z0-9_]+)['"]\s*\])/g;

/**
 * A quoted `'npm_*'` name, which code reads through a lookup (`env[variable]` over a table of
 * names, as create-weft reads the options npm kept for itself).
 */
const QUOTED_NPM_NAME = /['"](npm_[a-z0-9_]+)['"]/g;

/** `const { PORT, HOST: host = '0.0.0.0' } = process.env` (or `= env`): the names taken out. */
const DESTRUCTURED = /\{([^{}]*)\}\s*=\s*(?:process\.)?env\b/g;
const VARIABLE_NAME = /^(?:[A-Z][A-Z0-9_]*|npm_[a-z0-9_]+)$/;

function readsOf(file: SourceFile): string[] {
  const code = withoutComments(file.text);
  return [
    ...[...code.matchAll(READ)].map((match) => match[1] ?? match[2] ?? ''),
    ...[...code.matchAll(QUOTED_NPM_NAME)].map((match) => match[1] ?? ''),
    ...[...code.matchAll(DESTRUCTURED)].flatMap((match) =>
      (match[1] ?? '')
        .split(',')
        .map((part) => part.trim().split(/[\s:=]/, 1)[0] ?? '')
        .filter((name) => VARIABLE_NAME.test(name)),
    ),
  ];
}

function scannedFiles(): SourceFile[] {
  const code = (name: string) => /\.(?:ts|tsx|js|mjs|cjs)$/.test(name) && !name.endsWith('.d.ts');
  return [...packageSources(), ...packageFiles('templates', code)];
}

describe('environment variables', () => {
  const listed = new Set(ENVIRONMENT_VARIABLES.map((variable) => variable.name));

  it('lists every variable the packages and the generated projects read [claim:cg-references-checks] [claim:cfg-lists-everything]', () => {
    const unlisted: string[] = [];
    let reads = 0;
    for (const file of scannedFiles()) {
      for (const name of readsOf(file)) {
        reads += 1;
        if (!listed.has(name)) unlisted.push(`${name} (${file.path})`);
      }
    }
    expect(reads).toBeGreaterThan(5);
    expect(unlisted).toEqual([]);
  });

  it('finds the variables read by a computed name: such a read is in a file that quotes the names it looks up', () => {
    // `env[variable]` with a name from elsewhere would hide the variable from the check above.
    const computed = /\benv\[\s*[A-Za-z_$][\w$]*\s*\]/;
    const files = scannedFiles().filter((file) => computed.test(withoutComments(file.text)));
    expect(files.map((file) => file.path)).toContain('packages/create-weft/src/arguments.ts');
    const unquoted = files.filter(
      (file) => [...withoutComments(file.text).matchAll(QUOTED_NPM_NAME)].length === 0,
    );
    expect(unquoted.map((file) => file.path)).toEqual([]);
  });

  it('is read where the list says, with the default the list shows', () => {
    for (const variable of ENVIRONMENT_VARIABLES) {
      for (const path of variable.readIn) {
        const text = readFileSync(join(REPOSITORY_ROOT, path), 'utf8');
        expect({ variable: variable.name, path, read: readsOf({ path, text }) }).toEqual({
          variable: variable.name,
          path,
          read: expect.arrayContaining([variable.name]),
        });
      }
      const fallback = defaultOf(variable);
      if (fallback === undefined) continue;
      // The default is written in a file that reads the variable, quoted or as the value of a
      // constant that file imports (`DEFAULT_PORT = 8787` in the project's src/port.ts).
      const holding = variable.readIn.filter((path) => {
        const text = readFileSync(join(REPOSITORY_ROOT, path), 'utf8');
        const imported = [...text.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)]
          .map(([, file]) => join(REPOSITORY_ROOT, dirname(path), `${file}.ts`))
          .filter((file) => existsSync(file))
          .map((file) => readFileSync(file, 'utf8'));
        return (
          text.includes(`'${fallback}'`) ||
          [text, ...imported].some((source) => source.includes(`= ${fallback};`))
        );
      });
      expect({ variable: variable.name, holding: holding.length > 0 }).toEqual({
        variable: variable.name,
        holding: true,
      });
    }
  });

  it("names every variable the site's examples read in the paragraph after the table", () => {
    const examples = join(REPOSITORY_ROOT, 'examples');
    const read = new Set<string>();
    for (const name of readdirSync(examples, { recursive: true, encoding: 'utf8' })) {
      if (!/\.(?:ts|tsx)$/.test(name) || /\.test\.tsx?$/.test(name)) continue;
      const text = readFileSync(join(examples, name), 'utf8');
      for (const variable of readsOf({ path: name, text })) read.add(variable);
    }
    expect(read.size).toBeGreaterThan(10);
    const named = [...read].filter((variable) => EXAMPLES_VARIABLES.includes(`\`${variable}\``));
    expect(named.sort()).toEqual([...read].sort());
    expect(readDoc('reference/configuration.md')).toContain(EXAMPLES_VARIABLES);
  });

  it('names what each example reads in the clause about that example', () => {
    // The clause of the paragraph that speaks of each examples folder, up to its `;` or `.`.
    const clauseMarkers: Record<string, string> = {
      'getting-started': 'Getting started reads',
      'model-providers': 'Model providers',
      'tutorial-chat': 'chat assistant tutorial',
      production: 'production guide’s service',
      observability: 'observability guide’s logger',
      'memory-providers': 'PostgreSQL memory example',
      'scaling-out': 'Scaling out',
    };
    const examples = join(REPOSITORY_ROOT, 'examples');
    const misplaced: string[] = [];
    for (const [folder, marker] of Object.entries(clauseMarkers)) {
      const start = EXAMPLES_VARIABLES.indexOf(marker);
      expect({ folder, found: start >= 0 }).toEqual({ folder, found: true });
      const rest = EXAMPLES_VARIABLES.slice(start);
      const clause = rest.slice(0, rest.search(/;|\.(?:\s|$)/) + 1 || rest.length);
      for (const name of readdirSync(join(examples, folder), {
        recursive: true,
        encoding: 'utf8',
      })) {
        if (!/\.(?:ts|tsx)$/.test(name) || /\.test\.tsx?$/.test(name)) continue;
        const text = readFileSync(join(examples, folder, name), 'utf8');
        for (const variable of readsOf({ path: name, text })) {
          if (!clause.includes(`\`${variable}\``)) misplaced.push(`${folder}/${name}: ${variable}`);
        }
      }
    }
    expect(misplaced).toEqual([]);
  });

  it('appear on the configuration page, each in its own row', () => {
    const rows = codeRows(readDoc('reference/configuration.md'));
    expect([...listed].filter((name) => !rows.has(name))).toEqual([]);
  });
});
