/**
 * `npm run check:docs` (scripts/check-docs.ts): its steps in order, stopping at the first that
 * fails; the files it formats and lints are those changed against main, committed or not; the
 * unit tests it runs are the ones that read the docs; and its build step fails on the broken
 * links and anchors Docusaurus reports.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  BROKEN_REFERENCE,
  DOCS_TESTS,
  changedFiles,
  runSteps,
  steps,
  type Step,
} from '../../scripts/check-docs';

const root = path.resolve(__dirname, '../..');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'weft-check-docs-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 30_000,
  });

describe('check:docs', () => {
  it('is the npm script, with its steps in order: lint, samples, docs checks, build [claim:cg-check-docs-steps]', () => {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts['check:docs']).toBe('tsx scripts/check-docs.ts');
    expect(steps([]).map((step) => step.name)).toEqual([
      'format and lint of 0 changed files',
      'samples: examples/ type-checked and their tests',
      'docs checks: claims, prose, READMEs, TSDoc, references',
      'site build: broken links and anchors fail',
    ]);
  });

  it('runs the unit tests that read the docs, each a file that exists [claim:cg-check-docs-steps]', () => {
    for (const name of [
      'claims',
      'docs-prose',
      'package-readmes',
      'code-samples',
      'errors-registry',
      'log-messages',
      'configuration-reference',
    ]) {
      expect(DOCS_TESTS).toContain(`tests/unit/${name}.test.ts`);
    }
    for (const file of DOCS_TESTS) expect(existsSync(path.join(root, file)), file).toBe(true);
  });

  it('runs every test that reads a page, a package README or the whitepaper [claim:cg-check-docs-steps]', () => {
    // A path to a page, a README or the whitepaper, as the tests write the files they read.
    const readsPage = [
      /['"`](?:\.\.\/)*(?:docs|whitepaper)\/[\w./-]+\.mdx?['"`]/,
      /['"`](?:docs|whitepaper)['"`],\s*['"`][\w./-]+\.mdx?['"`]/,
      /['"`](?:\.\.\/)*README\.md['"`]/,
      /\(\s*\w+,\s*['"`](?:docs|whitepaper)['"`]\s*\)/,
      // The helpers that read a page for a test: readDoc('installation.md'), sectionCommands(page, …).
      /from\s+['"`][./]*(?:\w+\/)*support\/(?:doc-tables|page-commands)['"`]/,
    ];
    // Tests whose such paths name files of their own, not the repository's pages.
    const notPages = new Set([
      'tests/unit/folder-layers.test.ts', // which layer a path belongs to
      'tests/unit/generate-assets.test.ts', // which files an asset is made from
      'tests/unit/local-search.test.ts', // a build folder it writes
      'tests/unit/output-cache.test.ts', // a build folder it writes
      'tests/unit/markdown-copies-cache.test.ts', // a build folder it writes
      'tests/unit/rehype-type-hovers.test.ts', // a page path for an error message
      'tests/unit/hover-types-from-cache.test.ts', // a page path for the plugin's file
      'packages/mcp-docs/test/site-pages.test.ts', // a site it writes
      'packages/create-weft/test/cli.test.ts', // the README of the project it creates
      'packages/create-weft/test/container.test.ts', // the README of the project it creates
      'packages/create-weft/test/create-project.test.ts', // the README of the project it creates
    ]);
    const testFiles = [
      'tests/unit',
      'tests/integration',
      ...readdirSync(path.join(root, 'packages')).map((name) => `packages/${name}/test`),
    ]
      .filter((folder) => existsSync(path.join(root, folder)))
      .flatMap((folder) =>
        readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
          .filter((file) => file.endsWith('.test.ts'))
          .map((file) => `${folder}/${file.split(path.sep).join('/')}`),
      );
    const readers = testFiles.filter((file) => {
      const source = readFileSync(path.join(root, file), 'utf8');
      return readsPage.some((pattern) => pattern.test(source));
    });
    expect(readers).toContain('packages/testing/test/readme-errors.test.ts');
    expect(readers.filter((file) => !notPages.has(file) && !DOCS_TESTS.includes(file))).toEqual([]);
  });

  it('stops at the first step that fails, running none after it [claim:cg-check-docs-steps]', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const ran: string[] = [];
    const step = (name: string, passed: boolean): Step => ({
      name,
      hint: `fix ${name}`,
      run: () => {
        ran.push(name);
        return Promise.resolve({ passed, output: '' });
      },
    });
    const outcome = await runSteps([step('a', true), step('b', false), step('c', true)]);
    expect(ran).toEqual(['a', 'b']);
    expect(outcome.failed?.name).toBe('b');
    expect(outcome.times.map((time) => time.step)).toEqual(['a', 'b']);
    expect((await runSteps([step('d', true)])).failed).toBeUndefined();
    vi.restoreAllMocks();
  });

  it('treats the broken links and the broken anchors Docusaurus reports as failures [claim:cg-check-docs-steps]', () => {
    const reported = readFileSync(
      path.join(root, 'node_modules/@docusaurus/core/lib/server/brokenLinks.js'),
      'utf8',
    );
    for (const kind of ['links', 'anchors']) {
      const message = `Docusaurus found broken ${kind}!`;
      expect(reported).toContain(message);
      expect(BROKEN_REFERENCE.test(message)).toBe(true);
    }
  });

  it('formats and lints the files changed against main, committed or not, that still exist [claim:cg-check-docs-steps]', () => {
    const repo = path.join(scratch, 'repo');
    execFileSync('git', ['init', '-q', '-b', 'main', repo], { timeout: 30_000 });
    for (const file of ['kept.md', 'edited.md', 'removed.md']) {
      writeFileSync(path.join(repo, file), `${file}\n`);
    }
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'main');
    git(repo, 'checkout', '-qb', 'change');
    writeFileSync(path.join(repo, 'committed.md'), 'new\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'change');
    writeFileSync(path.join(repo, 'edited.md'), 'edited, not committed\n');
    writeFileSync(path.join(repo, 'untracked.ts'), 'export {};\n');
    rmSync(path.join(repo, 'removed.md'));
    expect(changedFiles(repo).sort()).toEqual(['committed.md', 'edited.md', 'untracked.ts']);
  });
});
