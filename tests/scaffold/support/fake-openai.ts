import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A chat-completions request as the OpenAI model provider sends it. */
interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
}

/**
 * An OpenAI-compatible chat-completions server on 127.0.0.1 that lists one model, plans one
 * `assistant/reply` step, stops after it, and replies with the user's words. It records each request's model
 * and Authorization header, so a test can check what the agent sent.
 */
export async function startFakeOpenAI(): Promise<{
  baseUrl: string;
  requests: { model: string; authorization: string | undefined }[];
  close: () => Promise<void>;
}> {
  const requests: { model: string; authorization: string | undefined }[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      // The model list is what the provider's health check asks for at start.
      if (request.method === 'GET' && request.url === '/v1/models') {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ object: 'list', data: [{ id: 'fake-model' }] }));
        return;
      }
      if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
        response.writeHead(404).end();
        return;
      }
      const chat = JSON.parse(body) as ChatRequest;
      requests.push({ model: chat.model, authorization: request.headers.authorization });
      const system = chat.messages[0]?.content ?? '';
      const content = system.includes('JSON Schema (Pipeline)')
        ? JSON.stringify({ steps: [{ pluginId: 'assistant', action: 'reply', reason: 'asked' }] })
        : system.includes('JSON Schema (PipelineModification)')
          ? JSON.stringify({ type: 'stop', reason: 'answered' })
          : `Fake model heard: ${chat.messages.at(-1)?.content ?? ''}`;
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          model: chat.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
