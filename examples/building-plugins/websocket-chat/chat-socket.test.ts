import type { Runtime } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import {
  connect,
  echoModel,
  refusedUpgrade,
} from '../../../packages/plugin-websocket/test/support.js';
import { startChatSocket } from './chat-socket.js';

let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.stop();
  runtime = undefined;
});

async function start() {
  const started = await startChatSocket(
    new ScriptedModelProvider({ fallback: echoModel }),
    new InMemoryMemoryProvider(),
    new Map([['t-ada', 'ada']]),
    { port: 0, logger: pino({ level: 'silent' }) },
  );
  runtime = started.runtime;
  return started.chat.url as string;
}

describe('docs/building-plugins/websocket-chat.md', () => {
  it('chats with a client whose token names a user: accepted, then the reply [claim:wsdoc-sample] [claim:wsdoc-frames]', async () => {
    const url = await start();
    const client = await connect(`${url}?token=t-ada`);
    client.send({
      type: 'message',
      id: 'm1',
      room: 'lobby',
      user: 'ada',
      message: 'Hello!',
    });
    const accepted = await client.next();
    expect(accepted).toMatchObject({ type: 'accepted', id: 'm1' });
    expect(await client.next()).toEqual({
      type: 'reply',
      id: 'm1',
      taskId: (accepted as { taskId: string }).taskId,
      status: 'completed',
      reply: 'echo: Hello!',
    });
    client.socket.close();
  });

  it('refuses an unknown token with 401 and a page of another origin with 403 [claim:wsdoc-sample]', async () => {
    const url = await start();
    expect((await refusedUpgrade(`${url}?token=stolen`)).status).toBe(401);
    expect(
      (
        await refusedUpgrade(`${url}?token=t-ada`, {
          origin: 'https://evil.example',
        })
      ).status,
    ).toBe(403);
    const page = await connect(`${url}?token=t-ada`, {
      origin: 'https://chat.example.com',
    });
    page.socket.close();
  });
});
