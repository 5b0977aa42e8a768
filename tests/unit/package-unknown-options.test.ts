/**
 * The configuration reference ("Options of the first-party packages") says which constructors
 * refuse an option name they do not know and which ignore it; these checks hold it to the code.
 */
import { describe, expect, it } from 'vitest';
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

  it('are ignored by PostgresMemoryProvider, ChatPlugin and WebSocketPlugin [claim:cfg-package-unknown-options]', () => {
    expect(
      () => new PostgresMemoryProvider({ connectionString: DATABASE, poolSiz: 2 } as never),
    ).not.toThrow();
    expect(() => new ChatPlugin({ pth: '/talk' } as never)).not.toThrow();
    expect(() => new WebSocketPlugin({ pth: '/talk' } as never)).not.toThrow();
  });
});
