/**
 * The repository's ESLint configuration fails an import of a package that the file's nearest
 * package.json does not declare (eslint-plugin-n's no-extraneous-import): such an import works
 * only while npm happens to hoist the package. Linted as if the text were a file of the core, of
 * a package's tests and of the site, with a package that is installed but that none of them
 * declares.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const eslint = new ESLint({ cwd: root });

/**
 * The rules that report an error on `text`, linted as the file `file` of the repository. Only
 * errors count: a warning leaves `npm run lint` passing, so it would not stop the import.
 */
async function rulesReportedOn(file: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: path.join(root, file) });
  return (result?.messages ?? [])
    .filter((message) => message.severity === 2)
    .map((message) => message.ruleId ?? message.message);
}

describe("ESLint and the nearest package.json's dependencies", () => {
  it.each([
    'packages/core/src/undeclared.ts',
    'packages/memory-sqlite/test/undeclared.test.ts',
    'src/components/undeclared.ts',
  ])(
    'fails an import %s makes of a package its package.json does not declare [claim:cg-eslint-undeclared-imports]',
    async (file) => {
      const reported = await rulesReportedOn(
        file,
        "import lodash from 'lodash';\n\nexport const first = lodash.head([1]);\n",
      );
      expect(reported).toContain('n/no-extraneous-import');
    },
    60_000,
  );

  it('passes, in a workspace, an import of a package only the root package.json declares [claim:cg-eslint-workspace-root]', async () => {
    const manifest = (file: string): Record<string, Record<string, string> | undefined> =>
      JSON.parse(readFileSync(path.join(root, file), 'utf8')) as Record<
        string,
        Record<string, string> | undefined
      >;
    const declares = (file: string, name: string): boolean => {
      const fields = manifest(file);
      return ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'].some(
        (field) => fields[field]?.[name] !== undefined,
      );
    };
    expect(declares('package.json', 'semver')).toBe(true);
    expect(declares('packages/core/package.json', 'semver')).toBe(false);
    const reported = await rulesReportedOn(
      'packages/core/src/root-declared.ts',
      "import semver from 'semver';\n\nexport const valid = semver.valid('1.0.0');\n",
    );
    expect(reported).not.toContain('n/no-extraneous-import');
  }, 60_000);

  it('passes an import of a package the nearest package.json declares [claim:cg-eslint-undeclared-imports]', async () => {
    const reported = await rulesReportedOn(
      'packages/core/src/declared.ts',
      "import { z } from 'zod';\n\nexport const name = z.string();\n",
    );
    expect(reported).not.toContain('n/no-extraneous-import');
  }, 60_000);
});
