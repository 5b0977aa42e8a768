/**
 * One map of the repository, held to it: the contributing guide's "Repository layout" tree
 * lists every top-level folder and every folder of packages/ and libs/, and names nothing that
 * is not there; its script table lists exactly the npm scripts of the root package.json, which
 * stay few enough to read. The README points to that map instead of keeping a second one.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_PHASES } from '../../tooling/test-phases';
import { workingTreeFiles } from '../support/working-tree';

const root = path.resolve(__dirname, '../..');
const guide = readFileSync(path.join(root, 'docs/contributing-guide.md'), 'utf8');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const scripts = Object.keys(
  (
    JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts,
);

/** The text of a `## ` section of the guide, up to the next one. */
function section(heading: string): string {
  const start = guide.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`docs/contributing-guide.md has no "## ${heading}" section`);
  const end = guide.indexOf('\n## ', start + 1);
  return guide.slice(start, end === -1 ? undefined : end);
}

/** The paths the layout tree names: `packages/`, `packages/core/`, `docusaurus.config.ts`. */
function treePaths(): string[] {
  const tree = /```text\n([\s\S]*?)```/.exec(section('Repository layout'))?.[1] ?? '';
  const paths: string[] = [];
  let parent = '';
  for (const line of tree.split('\n')) {
    const top = /^(\S+)\s/.exec(line);
    const nested = /^ {2}(\S+\/)\s/.exec(line);
    if (top) {
      parent = top[1]!;
      paths.push(parent);
    } else if (nested) {
      paths.push(parent + nested[1]!);
    }
  }
  return paths;
}

/** The folders git tracks files in, `depth` levels deep (`packages/core/` at depth 2). */
function trackedFolders(depth: number): Set<string> {
  const files = workingTreeFiles(root);
  return new Set(
    files
      .map((file) => file.split('/'))
      .filter((parts) => parts.length > depth)
      .map((parts) => `${parts.slice(0, depth).join('/')}/`),
  );
}

/** The scripts the table names: `npm start` → start, `npm run bench -- <name>` → bench. */
function tableScripts(): string[] {
  return [...section('Run the site and the tests').matchAll(/^\| `npm (?:run )?([^ `]+)[^|]*\|/gm)]
    .map((match) => match[1]!)
    .filter((name) => name !== 'Script');
}

describe('the map of the repository', () => {
  it('reads the tree and the table it checks', () => {
    expect(treePaths()).toEqual(expect.arrayContaining(['packages/', 'packages/core/', 'libs/']));
    expect(tableScripts()).toEqual(expect.arrayContaining(['start', 'test', 'test:unit', 'bench']));
    expect(trackedFolders(2)).toContain('packages/core/');
  });

  it('names only paths that exist', () => {
    expect(treePaths().filter((entry) => !existsSync(path.join(root, entry)))).toEqual([]);
  });

  it("lists every top-level folder but the tools' own (.github, .ci), and every package and library", () => {
    const listed = new Set(treePaths());
    const expected = [
      ...[...trackedFolders(1)].filter((folder) => !['.github/', '.ci/'].includes(folder)),
      ...[...trackedFolders(2)].filter((folder) => /^(packages|libs)\//.test(folder)),
    ];
    expect(expected.filter((folder) => !listed.has(folder)).sort()).toEqual([]);
  });

  it('lists exactly the npm scripts of package.json, and they stay few', () => {
    expect([...tableScripts()].sort()).toEqual([...scripts].sort());
    expect(scripts.length).toBeLessThanOrEqual(22);
    // Hooks run unseen before a script; a command that needs a step first runs it itself.
    expect(scripts.filter((name) => /^(pre|post)/.test(name))).toEqual([]);
  });

  it("runs, from each npm script, a command of scripts/, a tool's own, the bench runner, create-weft's command line, a sample or the packages' builds [claim:cg-script-homes]", () => {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    // The one npm script that runs others: release, the `build` script of every package.
    const packagesBuild = 'npm run build --workspace packages';
    const tools = ['docusaurus', 'eslint', 'prettier', 'tsc', 'vitest', 'playwright', 'changeset'];
    const homes = [
      /^scripts\//,
      /^bench\/run\.ts$/,
      /^packages\/create-weft\/src\/cli\.ts$/,
      /^examples\//,
    ];
    const strays: string[] = [];
    for (const [name, script] of Object.entries(manifest.scripts)) {
      for (const command of script.split(/\s*&&\s*/)) {
        const words = command.split(/\s+/);
        const file = words.find((word) => /\.(ts|mjs|js)$/.test(word));
        // A tool's own command may name its config file; any other command runs a file.
        const ok =
          tools.includes(words[0]!) ||
          (name === 'release' && command === packagesBuild) ||
          (file !== undefined && homes.some((home) => home.test(file)));
        if (!ok) strays.push(`${name}: ${command}`);
      }
    }
    expect(strays).toEqual([]);
    expect(manifest.scripts.release).toContain(packagesBuild);
    const packageDirs = readdirSync(path.join(root, 'packages'), { withFileTypes: true })
      .filter((entry) => existsSync(path.join(root, 'packages', entry.name, 'package.json')))
      .map((entry) => entry.name);
    expect(packageDirs.length).toBeGreaterThan(5);
    for (const dir of packageDirs) {
      const own = JSON.parse(
        readFileSync(path.join(root, 'packages', dir, 'package.json'), 'utf8'),
      ) as { scripts?: Record<string, string> };
      expect({ dir, build: typeof own.scripts?.build }).toEqual({ dir, build: 'string' });
    }
    // Each home is in use, so the sentence names no place that runs nothing.
    const files = Object.values(manifest.scripts).join(' ');
    for (const home of [
      'scripts/',
      'bench/run.ts',
      'packages/create-weft/src/cli.ts',
      'examples/',
    ]) {
      expect(files).toContain(home);
    }
  });

  it('says "build first" for exactly the scripts whose tests read the site build [claim:cg-build-first]', () => {
    const table = section('Run the site and the tests');
    const buildFirst = [...table.matchAll(/^\| `npm run ([^ `]+)`[^|]*\|([^\n]*)$/gm)]
      .filter(([, , cell]) => /build first/.test(cell!))
      .map(([, script]) => script!);
    const readers = TEST_PHASES.filter((phase) => phase.siteBuild).map(({ script }) => script);
    expect(buildFirst.sort()).toEqual([...readers].sort());
    // Packing @weft/mcp-docs builds it, and its build makes the data from the site build.
    const mcpDocs = JSON.parse(
      readFileSync(path.join(root, 'packages/mcp-docs/package.json'), 'utf8'),
    ) as { scripts: Record<string, string> };
    expect(mcpDocs.scripts.prepack).toMatch(/npm run build/);
    expect(mcpDocs.scripts.build).toMatch(/^npm run generate:data && /);
  });

  it('names every override of package.json, with its version, and counts them [claim:cg-overrides-listed]', () => {
    const { overrides } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      overrides: Record<string, string | Record<string, string>>;
    };
    // `"verdaccio-audit": { "node-fetch": "2.7.0" }` is node-fetch under verdaccio-audit.
    const pinned = Object.entries(overrides).flatMap(
      ([name, value]): { name: string; version: string; under: string | undefined }[] =>
        typeof value === 'string'
          ? [{ name, version: value, under: undefined }]
          : Object.entries(value).map(([inner, version]) => ({
              name: inner,
              version,
              under: name,
            })),
    );
    const listing = section('Why package.json has overrides').split('\n\n')[1] ?? '';
    const words = ['none', 'one', 'two', 'three', 'four', 'five', 'six'];
    expect(listing).toContain(`pins ${words[pinned.length]} packages under \`overrides\``);
    for (const { name, version, under } of pinned) {
      const named = under === undefined ? `\`${name}\`` : `\`${name}\` under \`${under}\``;
      expect(listing).toContain(`${named} (${version})`);
    }
  });

  it("keeps one layout: the README points to the guide's instead of drawing its own", () => {
    expect(readme).toContain('(docs/contributing-guide.md#repository-layout)');
    expect(readme).not.toMatch(/^```text\n(?:.*\n)*?packages\//m);
    expect(readme).not.toMatch(/^## Repository layout/m);
  });
});
