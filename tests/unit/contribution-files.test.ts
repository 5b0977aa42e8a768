/**
 * The repository files a contributor is sent to: the pull request template's checklist, the
 * security policy, the license, and the issue search that lists the open bounties. Pages that
 * describe them (the bounty program, the contributing guide) must say what these files say.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { links } from '../../libs/docs-model/site';
import { DOCS_TESTS } from '../../scripts/check-docs';

const root = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const bountyPage = read('docs/bounty-program.md');

/** The test files of a folder, relative to the root. */
const testFiles = (folder: string) =>
  readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `${folder}/${file.split(path.sep).join('/')}`);

describe('contribution files', () => {
  it('the pull request checklist asks for npm test, tested samples in examples/, a look at desktop width and 375 px, and TSDoc; check:docs is the docs-only check, with the scaffold or package tests after a page whose commands they run [claim:bounty-ready-checks]', () => {
    const checklist = read('.github/pull_request_template.md')
      .split('\n')
      .filter((line) => line.startsWith('- [ ] '));
    expect(checklist).toHaveLength(4);
    expect(checklist[0]).toMatch(/`npm test` passes locally/);
    expect(checklist[1]).toMatch(/samples live in `examples\/` and have a test/);
    expect(checklist[2]).toMatch(/at desktop width and at 375 px/);
    expect(checklist[3]).toMatch(/Public API changes have TSDoc/);
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> })
      .scripts;
    expect(scripts.test).toBeDefined();
    expect(scripts['check:docs']).toBeDefined();
    const guide = read('docs/contributing-guide.md');
    expect(guide).toMatch(/^## Checks to run before a pull request$/m);
    expect(guide).toMatch(/^npm run check:docs +# a change to Markdown or TSDoc alone/m);
    expect(guide).toMatch(/^## Commits and pull requests$/m);
    // The page names the same four items.
    expect(bountyPage).toContain('`npm test`');
    expect(bountyPage).toContain('`npm run check:docs`');
    // check:docs leaves out the scaffold and package tests, which run the commands of a few
    // pages: after a change to one of them the guide asks for those tests too, and the page
    // names each such page (by its title, or the package whose README it is) and both scripts.
    expect(scripts['test:scaffold']).toBe('vitest run --config vitest.scaffold.config.ts');
    expect(scripts['test:packages']).toBe('vitest run --config vitest.packages.config.ts');
    expect(guide).toMatch(/run `npm run test:scaffold` or `npm run test:packages` as well/);
    const leftOut = [...testFiles('tests/scaffold'), ...testFiles('tests/pack')];
    expect(leftOut.filter((file) => DOCS_TESTS.includes(file))).toEqual([]);
    /** The pages whose commands a folder's tests run: a page's title, or a package's README. */
    const pagesRunBy = (folder: string) => {
      const named = new Set<string>();
      for (const file of testFiles(folder)) {
        const source = read(file);
        for (const match of source.matchAll(/['"`](docs\/[\w./-]+\.mdx?)['"`]/g)) {
          named.add(/^title: (.+)$/m.exec(read(match[1]!))![1]!);
        }
        if (/readFileSync\([^)]*README\.md/.test(source)) {
          // A test that reads a package's README names its folder: 'packages', '<folder>'.
          const folder = /['"`]packages['"`],\s*['"`]([\w-]+)['"`]/.exec(source)?.[1];
          expect(folder, `${file} reads a README of no package it names`).toBeDefined();
          named.add(`\`@weft/${folder!}\`'s README`);
        }
      }
      return [...named].sort();
    };
    expect(pagesRunBy('tests/scaffold')).toEqual(['Getting started', 'Scaling out']);
    expect(pagesRunBy('tests/pack')).toEqual(["`@weft/mcp-docs`'s README"]);
    // The page names both scripts and every page they cover.
    for (const name of [
      '`npm run test:scaffold`',
      '`npm run test:packages`',
      ...pagesRunBy('tests/scaffold'),
      ...pagesRunBy('tests/pack'),
    ]) {
      expect(bountyPage).toContain(name);
    }
    expect(bountyPage).toMatch(
      /samples in `examples\/` with tests, changed pages looked at at desktop width and at 375 px, TSDoc on public API changes/,
    );
  });

  it("the security policy sends vulnerabilities to the repository's private advisory form and keeps them out of the bounties [claim:bounty-security-advisory]", () => {
    const policy = read('SECURITY.md');
    expect(policy).toMatch(/^## Report a vulnerability privately$/m);
    expect(policy).toContain(`<${links.repository}/security/advisories/new>`);
    expect(policy).toMatch(/Do not open a public issue/);
    expect(policy).toMatch(/not part of the \[bounty program\]/);
    expect(bountyPage).toContain('${links.repository}/blob/main/SECURITY.md');
  });

  it('the repository and every published package are under the MIT license [claim:bounty-mit-license]', () => {
    expect(read('LICENSE').split('\n')[0]).toBe('MIT License');
    const folders = readdirSync(path.join(root, 'packages'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `packages/${entry.name}`);
    expect(folders.length).toBeGreaterThan(0);
    for (const folder of folders) {
      const manifest = JSON.parse(read(`${folder}/package.json`)) as { license?: string };
      expect({ folder, license: manifest.license }).toEqual({ folder, license: 'MIT' });
    }
  });

  it('the link to the bounties searches the open issues labelled bounty [claim:bounty-open-issues-link]', () => {
    const href = /<Link href=\{`\$\{links\.repository\}(\/issues\?q=[^`]+)`\}>/.exec(
      bountyPage,
    )?.[1];
    expect(href).toBeDefined();
    const query = new URL(`${links.repository}${href}`).searchParams.get('q');
    expect(query?.split(' ').sort()).toEqual(['is:issue', 'is:open', 'label:bounty']);
  });
});
