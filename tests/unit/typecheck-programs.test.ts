/**
 * `npm run typecheck` checks the packages, the probe and the cross-package tests in one program,
 * tsconfig.packages.json, instead of one per tsconfig. That holds only while each of those
 * tsconfigs asks for nothing the shared program does not give: the same compiler options, and no
 * file outside the program. A package whose tsconfig grows an option of its own would otherwise
 * be checked with settings it does not use.
 */
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');

function parse(configFile: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, configFile), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  if (parsed === undefined) throw new Error(`${configFile} could not be read`);
  return parsed;
}

/** The options that decide how code is checked; the file's own path is not one of them. */
function checkingOptions(options: ts.CompilerOptions): ts.CompilerOptions {
  const { configFilePath: _configFilePath, ...rest } = options;
  return rest;
}

const typecheckScript = (
  JSON.parse(ts.sys.readFile(path.join(ROOT, 'package.json')) ?? '{}') as {
    scripts: Record<string, string>;
  }
).scripts.typecheck!;

/** Every tsconfig the shared program stands for: one per package, the probe's, the tests'. */
const MEMBERS = [
  ...ts.sys
    .getDirectories(path.join(ROOT, 'packages'))
    .map((name) => `packages/${name}/tsconfig.json`)
    .filter((file) => ts.sys.fileExists(path.join(ROOT, file))),
  'bench/probe/tsconfig.json',
  'tests/integration/tsconfig.json',
];

describe('npm run typecheck', () => {
  it('runs the site, the shared packages program and the samples [claim:cg-typecheck-programs]', () => {
    expect(typecheckScript.split(' && ')).toEqual([
      'tsc -p tsconfig.json',
      'tsc -p tsconfig.packages.json',
      'tsc -p examples/tsconfig.json',
    ]);
  });

  it('checks in each program the folders the contributing guide names for it [claim:cg-typecheck-programs]', () => {
    const folders = (configFile: string): Set<string> =>
      new Set(
        parse(configFile).fileNames.map((file) => {
          const parts = path.relative(ROOT, file).split(path.sep);
          // tests/integration and bench/probe by their second folder; packages by their own.
          return ['packages', 'tests', 'bench'].includes(parts[0]!)
            ? parts.slice(0, 2).join('/')
            : parts[0]!;
        }),
      );
    const site = folders('tsconfig.json');
    for (const folder of ['src', 'libs', 'scripts', 'tooling', 'tests/unit', 'tests/e2e']) {
      expect(site, `tsconfig.json checks ${folder}`).toContain(folder);
    }
    expect(site).not.toContain('tests/integration');
    // The benches but the probe, which is in the packages' program.
    expect(site).toContain('bench/run.ts');
    expect(site).not.toContain('bench/probe');
    const packages = folders('tsconfig.packages.json');
    for (const folder of [
      'packages/core',
      'packages/testing',
      'bench/probe',
      'tests/integration',
    ]) {
      expect(packages, `tsconfig.packages.json checks ${folder}`).toContain(folder);
    }
    expect([...packages].filter((folder) => !/^(packages|bench|tests)\//.test(folder))).toEqual([]);
    expect([...folders('examples/tsconfig.json')]).toEqual(['examples']);
  });

  const shared = parse('tsconfig.packages.json');
  const sharedFiles = new Set(shared.fileNames.map((file) => path.resolve(file)));

  it('finds every package', () => {
    expect(MEMBERS.length).toBeGreaterThan(10);
    expect(MEMBERS).toContain('packages/core/tsconfig.json');
  });

  for (const member of MEMBERS) {
    it(`checks ${member}'s files with that tsconfig's own options`, () => {
      const own = parse(member);
      expect(own.errors).toEqual([]);
      expect(checkingOptions(own.options), member).toEqual(checkingOptions(shared.options));
      const missing = own.fileNames.filter((file) => !sharedFiles.has(path.resolve(file)));
      expect(missing, `${member}'s files that tsconfig.packages.json leaves out`).toEqual([]);
    });
  }

  it("checks the package scripts that use the site's settings in the site's program", () => {
    const site = new Set(parse('tsconfig.json').fileNames.map((file) => path.resolve(file)));
    for (const member of [
      'packages/create-weft/scripts/tsconfig.json',
      'packages/mcp-docs/scripts/tsconfig.json',
    ]) {
      const missing = parse(member).fileNames.filter((file) => !site.has(path.resolve(file)));
      expect(missing, `${member}'s files that tsconfig.json leaves out`).toEqual([]);
    }
  });
});
