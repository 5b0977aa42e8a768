/**
 * Test support: the docs bundle generated once per test file, and the real `weft-docs-mcp`
 * command (its TypeScript entry, through tsx) started as an MCP client would start it.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { BUNDLE_FORMAT, type DocsBundle } from '../src/bundle.js';

export const PACKAGE_DIR = resolve(__dirname, '..');
export const ROOT_DIR = resolve(PACKAGE_DIR, '..', '..');
export const CLI_ENTRY = join(PACKAGE_DIR, 'src', 'cli.ts');
/** Node's arguments that run the command from its sources, as `npm run` does in a clone. */
export const NODE_SOURCE_ARGS = ['--conditions=weft-source', '--import', 'tsx'];

const run = promisify(execFile);

/**
 * Generates a bundle from the repository's sources into a temporary folder, as the package's
 * build does (no site build needed), and returns its path.
 */
export async function generateBundle(): Promise<string> {
  const out = join(await mkdtemp(join(tmpdir(), 'weft-mcp-docs-test-')), 'docs-bundle.json');
  await run(
    process.execPath,
    [...NODE_SOURCE_ARGS, join(PACKAGE_DIR, 'scripts', 'generate-data.ts'), '--out', out],
    {
      cwd: PACKAGE_DIR,
      timeout: 240_000,
    },
  );
  return out;
}

/** A bundle of one page and nothing else: enough for tests of the transports. */
export const SMALL_BUNDLE: DocsBundle = {
  format: BUNDLE_FORMAT,
  version: '9.9.9',
  siteUrl: 'https://docs.example',
  pages: [
    {
      path: '/docs/guides/production/',
      title: 'Running in production',
      description: 'How to run an agent as a service.',
      section: 'Guides',
      kind: 'guide',
      markdown: '# Running in production\n\n## Shutdown\n\nA graceful shutdown drains the queue.\n',
    },
  ],
  symbols: [],
  errors: [],
  packages: [],
};

/** Writes {@link SMALL_BUNDLE} to a temporary file for `--data`, and returns its path. */
export async function writeSmallBundle(): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'weft-mcp-docs-small-')), 'docs-bundle.json');
  await writeFile(file, JSON.stringify(SMALL_BUNDLE));
  return file;
}
