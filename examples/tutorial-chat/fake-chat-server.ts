import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake server saw of one chat-completions request. */
export interface SeenRequest {
  model: string;
  messages: { role: string; content: string }[];
  /** The request's `temperature`, when it sent one. */
  temperature: number | undefined;
  authorization: string | undefined;
}

/** A stand-in for Ollama or OpenAI on 127.0.0.1, for tests. */
export interface FakeChatServer {
  /** `http://127.0.0.1:<port>/v1`, for `CHAT_BASE_URL`. */
  baseUrl: string;
  /** Every chat-completions request, oldest first. */
  requests: SeenRequest[];
  /** Stops the server; later requests fail as if the model were down. */
  close(): Promise<void>;
}

/**
 * Starts a server that speaks just enough of the chat-completions protocol for
 * the tutorial: a request that asks for a pipeline gets a one-step plan running
 * `conversation/answer`, one that asks for a review of the plan gets `stop`,
 * and any other request gets a reply that quotes the user's latest message and
 * counts the earlier ones.
 */
export async function startFakeChatServer(): Promise<FakeChatServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((request, response) => {
    void readJson(request).then((body) => {
      if (
        request.method !== 'POST' ||
        !request.url?.endsWith('/chat/completions')
      ) {
        response.writeHead(404, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const seen: SeenRequest = {
        model: String(body.model),
        messages: body.messages ?? [],
        temperature:
          typeof body.temperature === 'number' ? body.temperature : undefined,
        authorization: request.headers.authorization,
      };
      requests.push(seen);
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(completion(answer(seen))));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    // Safe to call twice: a test may close the server early to play an outage.
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer({ messages }: SeenRequest): string {
  const system = messages[0]?.content ?? '';
  if (system.includes('JSON Schema (Pipeline)')) {
    return JSON.stringify({
      steps: [
        { pluginId: 'conversation', action: 'answer', reason: 'a new message' },
      ],
    });
  }
  if (system.includes('JSON Schema (PipelineModification)')) {
    return JSON.stringify({ type: 'stop' });
  }
  const users = messages.filter((message) => message.role === 'user');
  const earlier = users.length - 1;
  return `You said "${users.at(-1)?.content}" after ${earlier} earlier message(s).`;
}

function completion(text: string): Record<string, unknown> {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'fake',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: text },
        finish_reason: 'stop',
      },
    ],
    usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 },
  };
}

async function readJson(request: IncomingMessage): Promise<{
  model?: unknown;
  temperature?: unknown;
  messages?: SeenRequest['messages'];
}> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      model?: unknown;
      temperature?: unknown;
      messages?: SeenRequest['messages'];
    };
  } catch {
    return {};
  }
}
