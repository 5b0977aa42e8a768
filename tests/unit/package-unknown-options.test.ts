/**
 * The configuration reference ("Options of the first-party packages") says that every first-party
 * constructor checks its options, naming a bad value's option, and refuses an option name it does
 * not know, naming it; these checks hold it to the code.
 */
import { describe, expect, it } from 'vitest';
import { WeftError } from '@weft/core';
import { PostgresSpaceCoordinator } from '@weft/coordinator-postgres';
import { PostgresMemoryProvider } from '@weft/memory-postgres';
import { SqliteMemoryProvider } from '@weft/memory-sqlite';
import { OpenAIModelProvider } from '@weft/model-openai';
import { ChatPlugin } from '@weft/plugin-chat';
import { McpPlugin } from '@weft/plugin-mcp';
import { WebSocketPlugin } from '@weft/plugin-websocket';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';

const DATABASE = 'postgres://agent@localhost/agent';

describe('unknown option names of the first-party packages', () => {
  it('are refused, named, by OpenAIModelProvider, PostgresSpaceCoordinator, McpPlugin.connect, SqliteMemoryProvider and the testing doubles [claim:cfg-package-unknown-options]', async () => {
    expect(
      () =>
        new OpenAIModelProvider({
          baseUrl: 'https://api.example.com/v1',
          apiKey: 'key',
          model: 'm',
          modle: 'x',
        } as never),
    ).toThrow(/"modle"/);
    expect(
      () => new PostgresSpaceCoordinator({ connectionString: DATABASE, poolSiz: 2 } as never),
    ).toThrow(/"poolSiz"/);
    await expect(
      McpPlugin.connect({
        id: 'docs',
        servers: [{ name: 'docs', command: 'node' }],
        timeoutMs: 5,
      } as never),
    ).rejects.toThrow(/"timeoutMs"/);
    expect(() => new ScriptedModelProvider({ idd: 'x' } as never)).toThrow(/"idd"/);
    expect(() => new InMemoryMemoryProvider({ idd: 'x' } as never)).toThrow(/"idd"/);
    expect(() => new SqliteMemoryProvider({ path: ':memory:', busyTimeout: 1 } as never)).toThrow(
      /busyTimeout/,
    );
  });

  it('are named even when the misspelt name is a required option, which is then missing too [claim:cfg-package-unknown-options]', async () => {
    // `baseURL` is the OpenAI SDK's spelling of `baseUrl`.
    expect(
      () => new OpenAIModelProvider({ baseURL: 'https://api.example.com/v1', model: 'm' } as never),
    ).toThrow(/"baseURL"/);
    expect(
      () => new OpenAIModelProvider({ baseUrl: 'https://api.example.com/v1', modle: 'm' } as never),
    ).toThrow(/"modle"/);
    await expect(McpPlugin.connect({ id: 'docs', servrs: [] } as never)).rejects.toThrow(
      /"servrs"/,
    );
    await expect(
      McpPlugin.connect({ id: 'docs', servers: [{ name: 'docs', comand: 'node' }] } as never),
    ).rejects.toThrow(/"comand"/);
    await expect(
      McpPlugin.connect({
        id: 'docs',
        servers: [{ name: 'docs', url: 'http://127.0.0.1:1/mcp', tols: ['search'] }],
      } as never),
    ).rejects.toThrow(/"tols"/);
    expect(() => new PostgresMemoryProvider({ connectionstring: DATABASE } as never)).toThrow(
      /"connectionstring"/,
    );
    expect(() => new PostgresSpaceCoordinator({ connectionstring: DATABASE } as never)).toThrow(
      /"connectionstring"/,
    );
    expect(() => new SqliteMemoryProvider({ pth: ':memory:' } as never)).toThrow(/"pth"/);
    expect(() => new WebSocketPlugin({ prt: 0 } as never)).toThrow(/"prt"/);
  });

  it('are refused, named, by SqliteMemoryProvider, PostgresMemoryProvider, ChatPlugin and WebSocketPlugin with their own codes [claim:cfg-package-unknown-options]', () => {
    const refusals: [() => unknown, string, RegExp][] = [
      [
        () => new SqliteMemoryProvider({ path: ':memory:', busyTimeout: 1 } as never),
        'WEFT_SQLITE_INVALID_OPTIONS',
        /"busyTimeout"/,
      ],
      [
        () => new PostgresMemoryProvider({ connectionString: DATABASE, poolSiz: 2 } as never),
        'WEFT_POSTGRES_INVALID_OPTIONS',
        /"poolSiz"/,
      ],
      [() => new ChatPlugin({ pth: '/talk' } as never), 'WEFT_CHAT_INVALID_OPTIONS', /"pth"/],
      [() => new WebSocketPlugin({ pth: '/talk' } as never), 'WEFT_WS_INVALID_OPTIONS', /"pth"/],
    ];
    for (const [create, code, named] of refusals) {
      let thrown: unknown;
      try {
        create();
      } catch (error) {
        thrown = error;
      }
      expect(WeftError.is(thrown, code), code).toBe(true);
      expect((thrown as Error).message).toMatch(named);
    }
  });

  it('refuse a bad value, naming its option, in every first-party constructor and McpPlugin.connect, before anything connects [claim:cfg-package-options-checked]', async () => {
    const url = 'https://api.example.com/v1';
    const refusals: [string, () => unknown, string, RegExp][] = [
      [
        'OpenAIModelProvider',
        () => new OpenAIModelProvider({ baseUrl: url, model: 'm', timeoutMs: 0 }),
        'WEFT_OPENAI_INVALID_OPTIONS',
        /option "timeoutMs"/,
      ],
      [
        'SqliteMemoryProvider',
        () => new SqliteMemoryProvider({ path: ':memory:', busyTimeoutMs: -1 }),
        'WEFT_SQLITE_INVALID_OPTIONS',
        /option "busyTimeoutMs"/,
      ],
      [
        'PostgresMemoryProvider',
        () => new PostgresMemoryProvider({ connectionString: DATABASE, pool: { max: 0 } }),
        'WEFT_POSTGRES_INVALID_OPTIONS',
        /option "pool\.max"/,
      ],
      [
        'PostgresSpaceCoordinator',
        () => new PostgresSpaceCoordinator({ connectionString: DATABASE, poolSize: 0 }),
        'WEFT_COORDINATOR_INVALID_OPTIONS',
        /poolSize/,
      ],
      [
        'ChatPlugin',
        () => new ChatPlugin({ maxInFlight: 0 }),
        'WEFT_CHAT_INVALID_OPTIONS',
        /option "maxInFlight"/,
      ],
      [
        'WebSocketPlugin',
        () => new WebSocketPlugin({ port: -1 }),
        'WEFT_WS_INVALID_OPTIONS',
        /option "port"/,
      ],
      [
        'McpPlugin.connect',
        // Port 1 refuses at once; the options are checked before any connection is tried.
        () =>
          McpPlugin.connect({
            id: 'docs',
            servers: [{ name: 'docs', url: 'http://127.0.0.1:1/mcp', tools: ['search'] }],
            callTimeoutMs: -1,
          }),
        'WEFT_MCP_INVALID_OPTIONS',
        /callTimeoutMs/,
      ],
      [
        'ScriptedModelProvider',
        () => new ScriptedModelProvider({ responses: 3 } as never),
        'WEFT_TESTING_INVALID_OPTIONS',
        /option "responses"/,
      ],
      [
        'InMemoryMemoryProvider',
        () => new InMemoryMemoryProvider({ id: 3 } as never),
        'WEFT_TESTING_INVALID_OPTIONS',
        /option "id"/,
      ],
    ];
    for (const [name, create, code, named] of refusals) {
      let thrown: unknown;
      try {
        await create();
      } catch (error) {
        thrown = error;
      }
      expect(WeftError.is(thrown, code), `${name}: ${String(thrown)}`).toBe(true);
      expect((thrown as Error).message, name).toMatch(named);
    }
  });
});
