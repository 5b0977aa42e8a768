/**
 * The weft-docs-mcp command: the options it parses and what it writes where, run from its
 * sources as a child process and reached over streamable HTTP by the MCP SDK's client.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { WeftError } from '@weft/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_HTTP_PORT, parseCliOptions, USAGE } from '../src/cli-options.js';
import { call, CLI_ARGS, PING, rawPost, ROOT_DIR, TOOLS_BUNDLE as bundle } from './support.js';

const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

describe('parseCliOptions', () => {
  it('defaults to stdio, and to 127.0.0.1 and DEFAULT_HTTP_PORT with --http', () => {
    expect(parseCliOptions([])).toEqual({
      transport: 'stdio',
      host: '127.0.0.1',
      port: DEFAULT_HTTP_PORT,
      allowedHosts: [],
      help: false,
    });
    expect(parseCliOptions(['--http'])).toMatchObject({ transport: 'http', port: 3920 });
    expect(USAGE).toContain(`the HTTP port (${DEFAULT_HTTP_PORT}; 0 picks a free one)`);
  });

  it('reads each --allowed-host, repeated as often as needed, into the allowedHosts it starts the server with [claim:mcp-docs-http-allowed-host]', () => {
    expect(
      parseCliOptions(['--http', '--allowed-host', 'a.test', '--allowed-host', 'b.test']),
    ).toMatchObject({ allowedHosts: ['a.test', 'b.test'] });
  });

  it.each(['https://docs.example.com', 'docs.example.com:3920', 'docs.example.com/mcp', ' '])(
    'refuses --allowed-host %j, which no Host header can match, saying a host name is expected [claim:mcp-docs-http-allowed-host-names-only] [claim:mcp-docs-readme-allowed-host-names-only] [claim:errors-docs-invalid-options]',
    (name) => {
      let caught: unknown;
      try {
        parseCliOptions(['--http', '--allowed-host', 'docs.example.com', '--allowed-host', name]);
      } catch (error) {
        caught = error;
      }
      expect(WeftError.is(caught, 'WEFT_DOCS_INVALID_OPTIONS')).toBe(true);
      expect((caught as Error).message).toContain(
        `--allowed-host must be a host name such as 'agent.example.com', or '.example.com' for a name and its subdomains, without a scheme, port or path`,
      );
      expect((caught as Error).message).toContain(`got "${name}"`);
    },
  );

  it('takes names, dotted names and IP addresses, IPv6 ones bracketed or not, as --allowed-host [claim:mcp-docs-http-allowed-host-names-only]', () => {
    const names = ['docs.example.com', '.example.com', '192.0.2.1', '::1', '[2001:db8::1]'];
    expect(
      parseCliOptions(['--http', ...names.flatMap((name) => ['--allowed-host', name])]),
    ).toMatchObject({ allowedHosts: names });
  });

  it.each([
    [['--port', '80'], '--port: for --http only'],
    [['--host', '0.0.0.0'], '--host: for --http only'],
    [['--allowed-host', 'docs.example.com'], '--allowed-host: for --http only'],
    [['--port', '80', '--host', '::1'], '--port, --host: for --http only'],
    [['--http', '--port', '65536'], '--port must be a number from 0 to 65535, got "65536"'],
    [['--http', '--port', '-1'], "Option '--port' argument is ambiguous"],
    [['docs'], "Unexpected argument 'docs'"],
  ])('names what is wrong in %j [claim:errors-docs-invalid-options]', (argv, message) => {
    let caught: unknown;
    try {
      parseCliOptions(argv);
    } catch (error) {
      caught = error;
    }
    expect(WeftError.is(caught, 'WEFT_DOCS_INVALID_OPTIONS')).toBe(true);
    expect((caught as Error).message).toContain(message);
    expect((caught as Error).message).toContain('Run weft-docs-mcp --help for the options.');
  });
});

describe('the weft-docs-mcp command: stdout belongs to the protocol', () => {
  /** Runs the command from its sources; resolves with its exit code and both streams. */
  function start(args: string[]) {
    const child = spawn(process.execPath, [...CLI_ARGS, ...args], {
      cwd: ROOT_DIR,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`no exit in 60 s: ${stderr}`)), 60_000);
        child.once('exit', (code) => {
          clearTimeout(deadline);
          resolve({ code, stdout, stderr });
        });
      },
    );
    return { child, exited, stdout: () => stdout, stderr: () => stderr };
  }

  /** Writes the test bundle to a temporary file; resolves with its path. */
  async function bundleFile(text = JSON.stringify(bundle)): Promise<string> {
    const file = join(await mkdtemp(join(tmpdir(), 'weft-mcp-cli-')), 'bundle.json');
    await writeFile(file, text);
    return file;
  }

  it('lists in --help the options it takes, those the guide names among them [claim:mcp-docs-help-lists-options]', () => {
    const listed = [...USAGE.matchAll(/^ {2}(--[a-z-]+)( <\w+>)?/gm)].map((match) => ({
      name: match[1]!,
      takesValue: match[2] !== undefined,
    }));
    expect(listed.map(({ name }) => name)).toEqual(
      expect.arrayContaining(['--http', '--port', '--host', '--allowed-host', '--help']),
    );
    // Each listed option is one the command accepts, with a value when the list shows one.
    for (const { name, takesValue } of listed) {
      const argv = name === '--http' ? [name] : ['--http', name, ...(takesValue ? ['1'] : [])];
      expect(() => parseCliOptions(argv), name).not.toThrow();
    }
    // An option the list does not show is refused as unknown.
    expect(() => parseCliOptions(['--verbose'])).toThrow("Unknown option '--verbose'");
    expect(USAGE).toMatch(/--allowed-host <name> +a name to accept in Host and Origin/);
  });

  it('over stdio, answers from the bundle --data names [claim:mcp-docs-readme-data]', async () => {
    const running = start(['--data', await bundleFile()]);
    try {
      running.child.stdin.write(
        `${JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-03-26',
            capabilities: {},
            clientInfo: { name: 'weft-docs-test', version: '1.0.0' },
          },
        })}\n`,
      );
      await vi.waitFor(() => expect(running.stdout()).toContain('\n'), {
        timeout: 60_000,
        interval: 100,
      });
      const answer = JSON.parse(running.stdout().split('\n')[0]!) as {
        result?: { serverInfo?: { version?: string } };
      };
      // The test bundle's version, not the package's own.
      expect(answer.result?.serverInfo?.version).toBe('9.9.9');
    } finally {
      running.child.kill('SIGKILL');
    }
  }, 90_000);

  it('stops with exit code 1 and loadDocsBundle’s message naming the file when --data is not a bundle it can read, before it listens [claim:mcp-docs-readme-data-invalid]', async () => {
    // One bad bundle over --http; bundle.test.ts holds the message of each kind of bad file
    // (missing, not JSON, not a bundle) and http-and-cli.test.ts a missing one over stdio.
    const file = await bundleFile('{ not json');
    const { code, stdout, stderr } = await start(['--http', '--port', '0', '--data', file]).exited;
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(`the documentation bundle ${file} is not valid JSON`);
    expect(stderr).not.toContain('listening');
  }, 90_000);

  it('stops with exit code 1 before it listens when --data has the right format but entries of another shape [claim:mcp-docs-readme-data-invalid]', async () => {
    const file = await bundleFile(JSON.stringify({ ...bundle, pages: [null] }));
    const { code, stdout, stderr } = await start(['--http', '--port', '0', '--data', file]).exited;
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(`${file} is not a documentation bundle`);
    expect(stderr).not.toContain('listening');
  }, 90_000);

  it('writes --help to stderr, nothing to stdout', async () => {
    const { code, stdout, stderr } = await start(['--help']).exited;
    expect(code).toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toBe(USAGE);
  });

  it('over --http, says where it listens on stderr, answers the SDK client from the bundle --data names and exits 0 on SIGTERM [claim:mcp-docs-readme-data]', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'weft-mcp-cli-'));
    const data = join(dir, 'bundle.json');
    await writeFile(data, JSON.stringify(bundle));
    const running = start(['--http', '--port', '0', '--data', data]);
    try {
      await vi.waitFor(() => expect(running.stderr()).toMatch(/listening at \S+/), {
        timeout: 60_000,
        interval: 100,
      });
      const url = /listening at (\S+)/.exec(running.stderr())?.[1] ?? '';
      expect(running.stderr()).toBe(`weft-docs-mcp 9.9.9: listening at ${url}\n`);
      const client = new Client({ name: 'weft-docs-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      clients.push(client);
      // The test bundle's version, not the package's own: --data holds over HTTP as well.
      expect(client.getServerVersion()?.version).toBe('9.9.9');
      expect((await call(client, 'get_api_symbol', { name: 'Runtime' })).text).toContain(
        '# Runtime (class, @weft/core)',
      );
      running.child.kill('SIGTERM');
      const { code, stdout } = await running.exited;
      expect(code).toBe(0);
      expect(stdout).toBe('');
    } finally {
      running.child.kill('SIGKILL');
    }
  }, 90_000);

  it('listens on the --host given and accepts each --allowed-host as Host and as Origin, a dotted one with its subdomains [claim:mcp-docs-readme-http] [claim:mcp-docs-http-allowed-host] [claim:prod-mcp-docs-limits] [claim:mcp-docs-readme-allowed-host-dot]', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'weft-mcp-cli-'));
    const data = join(dir, 'bundle.json');
    await writeFile(data, JSON.stringify(bundle));
    const running = start([
      '--http',
      '--port',
      '0',
      '--host',
      '127.0.0.2',
      '--allowed-host',
      'a.test',
      '--allowed-host',
      'b.test',
      '--allowed-host',
      '.example.test',
      '--data',
      data,
    ]);
    try {
      await vi.waitFor(() => expect(running.stderr()).toMatch(/listening at \S+/), {
        timeout: 60_000,
        interval: 100,
      });
      const url = new URL(/listening at (\S+)/.exec(running.stderr())?.[1] ?? '');
      expect(url.hostname).toBe('127.0.0.2');
      /** The status of a ping sent with these headers. */
      const status = async (headers: Record<string, string>): Promise<number> =>
        (await rawPost(url, PING, { headers, mcp: true })).status;
      expect(await status({ host: `a.test:${url.port}` })).toBe(200);
      expect(await status({ host: `b.test:${url.port}` })).toBe(200);
      expect(await status({ origin: 'http://b.test:5173' })).toBe(200);
      expect(await status({ host: `c.test:${url.port}` })).toBe(403);
      expect(await status({ origin: 'http://c.test:5173' })).toBe(403);
      // A leading dot: the name itself and its subdomains, at any depth, but no other name.
      expect(await status({ host: `example.test:${url.port}` })).toBe(200);
      expect(await status({ host: `docs.example.test:${url.port}` })).toBe(200);
      expect(await status({ host: `a.docs.example.test:${url.port}` })).toBe(200);
      expect(await status({ origin: 'https://docs.example.test' })).toBe(200);
      expect(await status({ host: `notexample.test:${url.port}` })).toBe(403);
      expect(await status({ origin: 'https://notexample.test' })).toBe(403);
    } finally {
      running.child.kill('SIGKILL');
    }
  }, 90_000);
});
