/**
 * The options that become timers: Node.js runs a setTimeout longer than 2147483647 ms after 1 ms,
 * so such a callTimeoutMs would fail every tool call at once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WeftError } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { resolveOptions, type McpPluginOptions } from '../src/options.js';

const servers = [{ name: 'files', command: process.execPath, tools: ['read'] }];

function refusal(options: Partial<McpPluginOptions>): string {
  try {
    resolveOptions({ servers, ...options });
  } catch (error) {
    expect(WeftError.is(error, 'WEFT_MCP_INVALID_OPTIONS')).toBe(true);
    return (error as Error).message;
  }
  return '';
}

describe('McpPlugin timer options', () => {
  it.each(['reconnectDelayMs', 'maxReconnectDelayMs'])(
    'refuse %s over 2147483647 ms, naming it [claim:mcp-timer-max]',
    (name) => {
      expect(refusal({ [name]: 2_147_483_648 })).toBe(
        `McpPlugin: ${name} must be at most 2147483647 ms (about 24.8 days), the longest delay a Node.js timer keeps. [WEFT_MCP_INVALID_OPTIONS]`,
      );
      expect(refusal({ [name]: 2_147_483_647 })).toBe('');
    },
  );

  it.each(['callTimeoutMs', 'connectTimeoutMs'])(
    "refuse %s over 2147478647 ms, since an HTTP server's answer may take 5 s more [claim:mcp-timer-max]",
    (name) => {
      expect(refusal({ [name]: 2_147_478_648 })).toBe(
        `McpPlugin: ${name} must be at most 2147478647 ms: an HTTP server's answer may take 5 s more, and 2147483647 ms is the longest delay a Node.js timer keeps. [WEFT_MCP_INVALID_OPTIONS]`,
      );
      expect(refusal({ [name]: 2_147_478_647 })).toBe('');
    },
  );

  it('refuse an unknown option name, a server with both transports and a logger without its methods [claim:mcp-invalid-options]', () => {
    expect(refusal({ callTimeout: 5_000 } as Partial<McpPluginOptions>)).toBe(
      'McpPlugin: options has no option "callTimeout"; the options are `id`, `description`, `servers`, `callTimeoutMs`, `connectTimeoutMs`, `maxResultBytes`, `reconnectDelayMs`, `maxReconnectDelayMs`, `logger`. [WEFT_MCP_INVALID_OPTIONS]',
    );
    const http = { name: 'web', url: 'https://tools.example.com/mcp', tools: ['read'] };
    expect(refusal({ servers: [{ ...http, env: { A: 'b' } } as never] })).toBe(
      'McpPlugin: servers[0] has no option "env"; the options are `name`, `url`, `headers`, `tools`, `descriptions`. [WEFT_MCP_INVALID_OPTIONS]',
    );
    expect(refusal({ servers: [{ ...http, command: 'node' } as never] })).toBe(
      'McpPlugin: servers[0] has both a `command` (stdio) and a `url` (streamable HTTP); give one of them. [WEFT_MCP_INVALID_OPTIONS]',
    );
    expect(refusal({ logger: {} as never })).toBe(
      'McpPlugin: logger must have debug, info, warn and error methods. [WEFT_MCP_INVALID_OPTIONS]',
    );
    expect(refusal({ logger: console })).toBe('');
  });

  it('refuse headers fetch cannot send, naming the header without quoting the value [claim:mcp-invalid-options] [claim:tsdoc-mcp-headers-sendable]', () => {
    const http = { name: 'web', url: 'https://tools.example.com/mcp', tools: ['read'] };
    const valueRule =
      'that is not a value fetch can send: without a control character other than a tab (such as a NUL, a line break or an escape) or a character beyond Latin-1. [WEFT_MCP_INVALID_OPTIONS]';
    for (const value of [
      'Bearer sec\u0000ret',
      'Bearer secret\u20ac',
      'Bearer sec\nret',
      // Headers takes these, and fetch refuses them only when it sends: every call would fail.
      'Bearer sec\u001bret',
      'Bearer sec\u0007ret',
      'Bearer sec\u007fret',
      'Bearer secret\u0001',
      // fetch would send a C1 control character (U+0080 to U+009F) as a raw byte: refused too.
      'Bearer sec\u0085ret',
      'Bearer secret\u009b',
    ]) {
      const message = refusal({
        servers: [{ ...http, headers: { accept: 'application/json', authorization: value } }],
      });
      expect(message, JSON.stringify(value)).toBe(
        `McpPlugin: servers[0].headers has a value for "authorization" ${valueRule}`,
      );
      expect(message).not.toContain('secret');
    }
    expect(refusal({ servers: [{ ...http, headers: { 'bad name': 'secret' } }] })).toBe(
      'McpPlugin: servers[0].headers has a header name "bad name" that is not a valid HTTP header name. [WEFT_MCP_INVALID_OPTIONS]',
    );
    expect(refusal({ servers: [{ ...http, headers: { authorization: 'Bearer ok' } }] })).toBe('');
    // A tab is sent as it is, and a character of Latin-1 beyond ASCII too.
    expect(refusal({ servers: [{ ...http, headers: { 'x-note': 'a\tb caf\u00e9' } }] })).toBe('');
    // A line break at the end of a value is not inside it: fetch trims it and sends the rest.
    expect(refusal({ servers: [{ ...http, headers: { authorization: 'Bearer ok\n' } }] })).toBe('');
  });

  it('refuse the headers fetch sets itself or does not support, which it cannot send, naming them [claim:mcp-invalid-options] [claim:tsdoc-mcp-headers-sendable]', async () => {
    // What fetch does with each: throws as it sends ("invalid upgrade header"), or, for a
    // content-length the body does not have, never completes the request.
    const answered = await new Promise<Server>((resolve) => {
      const listening = createServer((request, response) => {
        request.resume();
        request.on('end', () => response.end('ok'));
      }).listen(0, '127.0.0.1', () => resolve(listening));
    });
    const url = `http://127.0.0.1:${(answered.address() as AddressInfo).port}/mcp`;
    const refused: Record<string, string> = {
      upgrade: 'h2c',
      'Transfer-Encoding': 'chunked',
      'keep-alive': 'timeout=5',
      expect: '100-continue',
      connection: 'upgrade',
      'content-length': '12',
    };
    try {
      for (const [name, value] of Object.entries(refused)) {
        const sent = await fetch(url, {
          method: 'POST',
          body: '{"jsonrpc":"2.0"}',
          headers: { [name]: value },
          signal: AbortSignal.timeout(5_000),
        }).then(
          () => 'sent',
          () => 'not sent',
        );
        expect(sent, name).toBe('not sent');
        const http = { name: 'web', url, tools: ['read'] };
        const message = refusal({ servers: [{ ...http, headers: { [name]: value } }] });
        expect(message, name).toMatch(
          new RegExp(
            `^McpPlugin: servers\\[0\\]\\.headers has a header "${name}" that fetch cannot send`,
          ),
        );
        expect(message).not.toContain(value);
      }
      // The values of connection fetch takes are taken.
      for (const value of ['close', 'Keep-Alive']) {
        const headers = { connection: value };
        expect(
          await fetch(url, { method: 'POST', body: '{}', headers }).then((r) => r.status),
        ).toBe(200);
        expect(refusal({ servers: [{ name: 'web', url, tools: ['read'], headers }] })).toBe('');
      }
    } finally {
      answered.closeAllConnections();
      await new Promise((resolve) => answered.close(resolve));
    }
  }, 30_000);

  it('refuse a url that is not http or https, a URL object included, or that holds credentials, without quoting them [claim:mcp-invalid-options] [claim:errors-mcp-server-name]', () => {
    const http = { name: 'web', tools: ['read'] };
    for (const url of [
      'ftp://tools.example.com/mcp',
      new URL('ftp://tools.example.com/mcp'),
      new URL('file:///srv/mcp'),
    ]) {
      expect(refusal({ servers: [{ ...http, url }] }), String(url)).toBe(
        'McpPlugin: servers[0].url must be an http or https URL. [WEFT_MCP_INVALID_OPTIONS]',
      );
    }
    // fetch refuses a URL with credentials, and its error quotes the URL, password and all.
    for (const url of [
      'https://agent:s3cret@tools.example.com/mcp',
      new URL('https://agent@tools.example.com/mcp'),
    ]) {
      const message = refusal({ servers: [{ ...http, url }] });
      expect(message, String(url)).toBe(
        'McpPlugin: servers[0].url must not hold a user name or password, which fetch refuses to send (and its error would quote them); give them in `headers`, such as an `authorization` header. [WEFT_MCP_INVALID_OPTIONS]',
      );
      expect(message).not.toContain('s3cret');
    }
    expect(refusal({ servers: [{ ...http, url: new URL('https://tools.example.com/mcp') }] })).toBe(
      '',
    );
    expect(refusal({ servers: [{ ...http, url: 'http://127.0.0.1:3000/mcp' }] })).toBe('');
  });

  it("refuse a NUL in a stdio server's command, args, env or cwd, without quoting it [claim:mcp-invalid-options]", () => {
    const stdio = { name: 'files', command: process.execPath, tools: ['read'] };
    const cases: [Partial<typeof stdio> & Record<string, unknown>, string][] = [
      [{ env: { KEY: 'sec\u0000ret' } }, 'servers[0].env.KEY'],
      [{ args: ['-e', 'sec\u0000ret'] }, 'servers[0].args[1]'],
      [{ command: 'sec\u0000ret' }, 'servers[0].command'],
      [{ cwd: '/srv/sec\u0000ret' }, 'servers[0].cwd'],
    ];
    for (const [change, path] of cases) {
      const message = refusal({
        servers: [{ ...stdio, ...change } as McpPluginOptions['servers'][number]],
      });
      expect(message).toBe(
        `McpPlugin: ${path} must not hold a NUL character, which a process cannot be given. [WEFT_MCP_INVALID_OPTIONS]`,
      );
      expect(message).not.toContain('sec');
    }
  });

  it("refuse a NUL in a stdio server's env key, naming the key escaped and the problem [claim:mcp-invalid-options]", () => {
    const stdio = { name: 'files', command: process.execPath, tools: ['read'] };
    const message = refusal({
      servers: [{ ...stdio, env: { PATH: '/usr/bin', 'API\u0000KEY': 'token' } }],
    });
    expect(message).toBe(
      'McpPlugin: the key "API\\u0000KEY" of servers[0].env must not hold a NUL character, which a process cannot be given. [WEFT_MCP_INVALID_OPTIONS]',
    );
    expect(message).not.toContain('\u0000');
    expect(message).not.toContain('token');
  });

  it("refuse an empty env key or one holding '=', naming the key, which the server would read as another variable [claim:mcp-invalid-options] [claim:errors-mcp-server-name]", () => {
    const stdio = { name: 'files', command: process.execPath, tools: ['read'] };
    expect(refusal({ servers: [{ ...stdio, env: { 'A=B': 'v' } }] })).toBe(
      "McpPlugin: the key \"A=B\" of servers[0].env must not hold '=', which ends a variable's name: the server would see the name cut there and the rest in its value. [WEFT_MCP_INVALID_OPTIONS]",
    );
    expect(refusal({ servers: [{ ...stdio, env: { PATH: '/usr/bin', '': 'token' } }] })).toBe(
      'McpPlugin: the key "" of servers[0].env must not be empty, since a variable without a name cannot be given to a process. [WEFT_MCP_INVALID_OPTIONS]',
    );
    // '=' in a value is the value's own.
    expect(refusal({ servers: [{ ...stdio, env: { A: 'B=v' } }] })).toBe('');
  });

  it('name a bad option once [claim:mcp-invalid-options]', () => {
    expect(refusal({ callTimeoutMs: 0 })).toBe(
      'McpPlugin: callTimeoutMs must be positive. [WEFT_MCP_INVALID_OPTIONS]',
    );
  });
});
