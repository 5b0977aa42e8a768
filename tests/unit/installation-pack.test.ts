/**
 * Installation, "Today: from a clone": the commands that add Weft to an existing project run as
 * the page shows them (without the build, which only fills dist/): the vendor folder is made
 * first (npm pack fails with ENOENT when its destination does not exist), and the tarballs the
 * install line names are the ones npm pack writes. The build line builds what the pack line
 * packs and nothing else: building every workspace stops at @weft/mcp-docs in a clone without a
 * site build (seen on 2026-11-30: `npm run build --workspace packages` built the others and
 * exited with 1).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readDoc } from './support/doc-tables';

const ROOT = join(__dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'weft-install-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The shell block of a docs page that packs packages with `--pack-destination`. */
function packBlock(page = 'installation.md'): string[] {
  const blocks = [...readDoc(page).matchAll(/```(?:bash|sh)\n([\s\S]*?)```/g)].map(
    (match) => match[1] ?? '',
  );
  const block = blocks.find((text) => text.includes('--pack-destination'));
  if (block === undefined) throw new Error(`${page} has no npm pack block`);
  return block.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
}

/** The workspaces a line names with `-w`, in order. */
function workspacesOf(line: string | undefined): string[] {
  return [...(line ?? '').matchAll(/(?:^| )-w (\S+)/g)].map((match) => match[1] ?? '');
}

interface Manifest {
  name: string;
  private?: boolean;
  scripts?: Record<string, string>;
}

function manifestOf(folder: string): Manifest {
  return JSON.parse(
    readFileSync(join(ROOT, 'packages', folder, 'package.json'), 'utf8'),
  ) as Manifest;
}

describe('installation: packing Weft into an existing project', () => {
  it('runs as written, and writes the tarballs the install line names [claim:install-pack-existing]', () => {
    const lines = packBlock().map((line) =>
      line.replaceAll('../my-project', `${scratch}/my-project`),
    );
    const install = lines.find((line) => line.startsWith('npm install ./vendor/'));
    expect(install).toBeDefined();
    for (const line of lines) {
      if (line.startsWith('npm run build') || line === install) continue;
      const [command, ...args] = line.split(' ');
      execFileSync(command!, args, { cwd: ROOT, stdio: 'pipe', timeout: 60_000 });
    }
    const tarballs = install!.split(' ').filter((word) => word.startsWith('./vendor/'));
    expect(tarballs.length).toBe(2);
    for (const tarball of tarballs) {
      expect(existsSync(join(scratch, 'my-project', tarball))).toBe(true);
    }
  });

  it.each(['installation.md', 'guides/scaling-out.md'])(
    '%s builds exactly the workspaces it packs, never every one [claim:install-pack-existing]',
    (page) => {
      const lines = packBlock(page);
      const build = lines.find((line) => line.startsWith('npm run build'));
      const pack = lines.find((line) => line.startsWith('npm pack'));
      expect(build).toBeDefined();
      expect(workspacesOf(pack).length).toBeGreaterThan(0);
      expect(workspacesOf(build)).toEqual(workspacesOf(pack));
      expect(build).not.toMatch(/--workspaces?\b|--workspace packages/);
    },
  );

  it('leaves @weft/mcp-docs out: its build, which npm pack runs, fails without a site build [claim:install-pack-mcp-docs-site] [claim:install-pack-mcp-docs-prepack]', () => {
    // Of the published packages, only @weft/mcp-docs builds from the site (generate:data).
    const published = readdirSync(join(ROOT, 'packages'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => manifestOf(entry.name))
      .filter((manifest) => manifest.private !== true);
    const fromSite = published
      .filter((manifest) => /generate:data/.test(manifest.scripts?.build ?? ''))
      .map((manifest) => manifest.name);
    expect(fromSite).toEqual(['@weft/mcp-docs']);
    const mcpDocs = manifestOf('mcp-docs').scripts ?? {};
    expect(mcpDocs.prepack).toMatch(/\bnpm run build\b/);
    expect(mcpDocs.build).toMatch(/^npm run generate:data && /);
    expect(workspacesOf(packBlock().find((line) => line.startsWith('npm pack')))).not.toContain(
      '@weft/mcp-docs',
    );
    // generate:data with a site build folder that has no Markdown copies, as in a fresh clone.
    const noSite = join(scratch, 'no-site-build');
    const out = join(scratch, 'bundle.json');
    const result = spawnSync(
      process.execPath,
      [
        '--conditions=weft-source',
        '--import',
        'tsx',
        'packages/mcp-docs/scripts/generate-data.ts',
        '--site-build',
        noSite,
        '--out',
        out,
      ],
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${noSite}/docs.md and ${noSite}/docs/ are missing`);
    expect(result.stderr).toContain('Build the site first: run `npm run build` at the repository');
    expect(existsSync(out)).toBe(false);
  }, 90_000);
});
