/**
 * The route from a clone that docs/guides/ai-assistants.md gives first
 * (examples/mcp-docs/from-a-clone.sh), performed line by line in this clone: the site build,
 * whose Markdown copies are the server's pages, then the server's build command as written, then
 * the server started by the command the page hands the assistant, with plain `node` (no source
 * conditions, no tsx), and asked by the MCP SDK's client over stdio. The site build is the one
 * `npm test`'s `build` phase made before this file runs (run alone, it needs one: the server's
 * build refuses a missing or stale one with its message), not a second one. It builds packages'
 * dist/ folders, so it runs with the tarball checks, one file at a time, never beside a test that
 * packs them.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT_DIR = resolve(__dirname, '../..');
const PACKAGE_DIR = join(ROOT_DIR, 'packages', 'mcp-docs');
const SAMPLE = join(ROOT_DIR, 'examples', 'mcp-docs', 'from-a-clone.sh');

function sampleLines(): string[] {
  return readFileSync(SAMPLE, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** The words of a shell line, with `"$PWD` (the clone, where the line runs) filled in. */
function words(line: string, cwd: string): string[] {
  return line.replace(/"\$PWD([^"]*)"/g, (_whole, rest: string) => `${cwd}${rest}`).split(/\s+/);
}

describe('docs/guides/ai-assistants.md#from-a-clone', () => {
  it('the first lines make the clone these tests run in', () => {
    const [clone, cd, install] = sampleLines();
    // The repository the package names as its home.
    const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
      repository: { url: string };
    };
    const url = clone!.replace(/^git clone /, '');
    expect(manifest.repository.url.replace(/^git\+/, '')).toBe(url);
    expect(cd).toBe(`cd ${url.replace(/^.*\//, '').replace(/\.git$/, '')}`);
    expect(install).toBe('npm ci');
  });

  it('the site is built first, at the root, by the command that writes its Markdown copies to build/ [claim:mcp-docs-clone-route] [claim:mcp-docs-readme-site-first]', () => {
    expect(sampleLines()[3]).toBe('npm run build');
    const root = JSON.parse(readFileSync(join(ROOT_DIR, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(root.scripts.build).toMatch(/scripts\/build-site\.ts/);
  });

  it('the build line builds every Weft package the built command imports [claim:mcp-docs-clone-route]', () => {
    const build = sampleLines()[4]!;
    const built = [...build.matchAll(/-w (\S+)/g)].map((match) => match[1]!);
    const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const weftDependencies = Object.keys(manifest.dependencies).filter((name) =>
      name.startsWith('@weft/'),
    );
    // A workspace dependency resolves to its own dist/ under plain node: it must be built too,
    // and before the server (npm runs the named workspaces in the order the root lists them).
    expect(weftDependencies.length).toBeGreaterThan(0);
    expect(built).toEqual([...weftDependencies.sort(), '@weft/mcp-docs']);
  });

  it("the package README gives the same route, starting the file the page's set-ups start [claim:mcp-docs-readme-clone-route]", () => {
    const readme = readFileSync(join(PACKAGE_DIR, 'README.md'), 'utf8');
    const block = /^```sh\n(git clone [\s\S]*?)^```$/m.exec(readme)?.[1]?.trim().split('\n');
    const lines = sampleLines();
    expect(block?.slice(0, 5)).toEqual(lines.slice(0, 5));
    const started = words(lines[5]!, '/path/to/weft').slice(-2).join(' ');
    expect(block?.[5]).toBe(`${started.replace('/path/to/weft/', '')} --help`);
    expect(readme).toContain(`\`${started}\``);
  });

  it('builds, starts with the command given to the assistant and answers search_docs [claim:mcp-docs-clone-route] [claim:mcp-docs-clone-build-output] [claim:mcp-docs-readme-clone-route]', async () => {
    const lines = sampleLines();
    // The site build of line 4 is npm test's `build` phase's: its Markdown copies are there.
    expect(
      existsSync(join(ROOT_DIR, 'build', 'docs.md')),
      'no site build: run `npm run build`',
    ).toBe(true);
    const build = words(lines[4]!, ROOT_DIR);
    expect(build.slice(0, 3)).toEqual(['npm', 'run', 'build']);
    // About 30 s alone; the deadline leaves room for a loaded machine running the other
    // files, which generate bundles of their own at the same time.
    await run(build[0]!, build.slice(1), { cwd: ROOT_DIR, timeout: 240_000 });

    const add = words(lines[5]!, ROOT_DIR);
    const command = add.slice(add.indexOf('--') + 1);
    expect(command[0]).toBe('node');
    expect(command[1]).toBe(join(PACKAGE_DIR, 'dist', 'cli.js'));
    expect(readdirSync(join(PACKAGE_DIR, 'data'))).toContain('docs-bundle.json');

    const stderr: string[] = [];
    const transport = new StdioClientTransport({
      command: command[0]!,
      args: command.slice(1),
      // An assistant starts the server from the user's project, not from the clone.
      cwd: PACKAGE_DIR.replace(/packages[\\/]mcp-docs$/, 'examples'),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const client = new Client({ name: 'clone-route', version: '1.0.0' });
    try {
      await client.connect(transport, { timeout: 20_000 });
      const result = (await client.callTool(
        { name: 'search_docs', arguments: { query: 'graceful shutdown' } },
        undefined,
        { timeout: 20_000 },
      )) as CallToolResult;
      const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      expect(result.isError, `${text}\n${stderr.join('')}`).not.toBe(true);
      expect(text).toMatch(/path: \/docs\/guides\/production\//);
    } finally {
      await client.close();
    }
  }, 300_000);
});
