/**
 * The command's other faces: streamable HTTP (`--http`), reached by the SDK's own HTTP client,
 * refusing a request whose Host or Origin is not its own (DNS rebinding), and the command line's
 * errors for bad options and a missing bundle.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ARGS, repositoryBundle, PING, rawPost, ROOT_DIR } from './support.js';

const run = promisify(execFile);

let child: ChildProcess;
let url: URL;

beforeAll(async () => {
  const bundleFile = await repositoryBundle();
  child = spawn(process.execPath, [...CLI_ARGS, '--http', '--port', '0', '--data', bundleFile], {
    cwd: ROOT_DIR,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  url = await new Promise<URL>((resolve, reject) => {
    let output = '';
    const deadline = setTimeout(
      () => reject(new Error(`no "listening" line in 60 s: ${output}`)),
      60_000,
    );
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening at (\S+)/.exec(output);
      if (match) {
        clearTimeout(deadline);
        resolve(new URL(match[1]!));
      }
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
}, 300_000);

afterAll(() => {
  child?.kill('SIGTERM');
});

/** A raw POST of a ping with the headers given, as a browser page on another name would send it. */
function post(headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return rawPost(url, PING, { headers, mcp: true });
}

describe('weft-docs-mcp --http', () => {
  it('listens on 127.0.0.1 by default [claim:mcp-docs-http-loopback] [claim:mcp-docs-readme-http]', () => {
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.pathname).toBe('/mcp');
  });

  it('answers the SDK’s streamable HTTP client', async () => {
    const client = new Client({ name: 'weft-docs-http-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    try {
      const result = (await client.callTool({
        name: 'explain_error',
        arguments: { code: 'WEFT_HOST_NOT_ALLOWED' },
      })) as CallToolResult;
      expect(result.isError).not.toBe(true);
      expect(result.content[0]).toMatchObject({ type: 'text' });
      expect((result.content[0] as { text: string }).text).toContain(
        '# WEFT_HOST_NOT_ALLOWED (@weft/core)',
      );
    } finally {
      await client.close();
    }
  });

  it('refuses a Host header that is not its own with 403, as the runtime’s server does [claim:mcp-docs-http-host-check] [claim:mcp-docs-readme-http]', async () => {
    const { status, body } = await post({ host: `attacker.example:${url.port}` });
    expect(status).toBe(403);
    expect(body).toContain('Host \\"attacker.example\\" is not allowed by this server');
  });

  it('takes localhost as Host and as Origin, and refuses a name under it, such as app.localhost [claim:mcp-docs-http-host-check] [claim:mcp-docs-readme-http]', async () => {
    expect((await post({ host: `localhost:${url.port}` })).status).toBe(200);
    expect((await post({ origin: `http://localhost:${url.port}` })).status).toBe(200);
    const host = await post({ host: `app.localhost:${url.port}` });
    expect(host.status).toBe(403);
    expect(host.body).toContain('Host \\"app.localhost\\" is not allowed by this server');
    const origin = await post({ origin: `http://app.localhost:${url.port}` });
    expect(origin.status).toBe(403);
    expect(origin.body).toContain(`Origin \\"http://app.localhost:${url.port}\\" is not allowed`);
  });

  it('refuses a browser Origin of another name, even with its own Host [claim:mcp-docs-http-host-check] [claim:mcp-docs-readme-http] [claim:prod-mcp-docs-limits]', async () => {
    const { status, body } = await post({ origin: 'http://attacker.example' });
    expect(status).toBe(403);
    expect(body).toContain('Origin \\"http://attacker.example\\" is not allowed');
  });

  it('refuses a browser Origin of another IP address, which a Host of one would pass [claim:mcp-docs-http-host-check] [claim:mcp-docs-readme-http] [claim:prod-mcp-docs-limits]', async () => {
    const { status, body } = await post({ origin: 'http://192.0.2.5' });
    expect(status).toBe(403);
    expect(body).toContain('Origin \\"http://192.0.2.5\\" is not allowed');
  });

  it('refuses Origin: null with 403, as its README says [claim:mcp-docs-http-origin-null] [claim:mcp-docs-readme-origin-null]', async () => {
    const { status, body } = await post({ origin: 'null' });
    expect(status).toBe(403);
    expect(body).toContain('Origin \\"null\\" is not allowed');
  });

  it('spends milliseconds of CPU on a request, not the index build it used to repeat [claim:mcp-docs-http-index-once] [claim:mcp-docs-readme-index-once]', async () => {
    /** The command's CPU time so far, in milliseconds, from /proc (Linux). */
    const cpuMs = async (): Promise<number> => {
      const stat = await readFile(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime, the 12th and 13th fields after the name, in ticks of 10 ms.
      return (Number(fields[11]) + Number(fields[12])) * 10;
    };
    // A second for this client's allowance (20 requests a second) to fill up again.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await post({});
    const before = await cpuMs();
    for (let index = 0; index < 15; index += 1) expect((await post({})).status).toBe(200);
    // Rebuilding the index took 160 to 190 ms of CPU a request: 15 requests took seconds.
    expect((await cpuMs()) - before).toBeLessThan(1_000);
  });

  it('accepts localhost as Host, and an Origin on the loopback [claim:mcp-docs-http-host-check] [claim:prod-mcp-docs-limits]', async () => {
    const { status } = await post({
      host: `localhost:${url.port}`,
      origin: 'http://localhost:5173',
    });
    expect(status).toBe(200);
  });
});

describe('the weft-docs-mcp command line', () => {
  async function fails(args: string[]): Promise<string> {
    const outcome = await run(process.execPath, [...CLI_ARGS, ...args], {
      cwd: ROOT_DIR,
      timeout: 60_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(outcome.code).toBe(1);
    return outcome.stderr;
  }

  it('names an unknown option', async () => {
    expect(await fails(['--verbose'])).toContain("Unknown option '--verbose'");
  });

  it('names a bad port', async () => {
    expect(await fails(['--http', '--port', 'eighty'])).toContain(
      '--port must be a number from 0 to 65535, got "eighty"',
    );
  });

  it('says what to do when the bundle is missing [claim:mcp-docs-readme-no-data]', async () => {
    expect(await fails(['--data', '/nonexistent/docs-bundle.json'])).toContain(
      'cannot read the documentation bundle /nonexistent/docs-bundle.json',
    );
  });
});
