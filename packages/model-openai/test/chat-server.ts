import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the test server received. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON, or `undefined` when it is not JSON. */
  json: unknown;
}

/** Answers one request; may leave the response open to simulate a server that hangs. */
export type Handler = (request: RecordedRequest, response: ServerResponse) => void;

/** A local HTTP server that answers requests with queued handlers, in order. */
export interface ChatServer {
  /** `http://127.0.0.1:<port>/v1` */
  readonly baseUrl: string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Queues handlers for the next requests. Once the queue is empty, requests get a 599. */
  enqueue(...handlers: Handler[]): void;
  /** Closes the server and any connections still open. */
  close(): Promise<void>;
}

/** Starts a {@link ChatServer} on 127.0.0.1 and a free port. */
export async function startChatServer(): Promise<ChatServer> {
  const queue: Handler[] = [];
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        json,
      };
      requests.push(recorded);
      const handler = queue.shift() ?? reply(599, { error: { message: 'no handler queued' } });
      handler(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...handlers) => queue.push(...handlers),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Answers with a status and a body (an object is sent as JSON, a string as is). */
export function reply(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Handler {
  return (_request, response) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    const contentType = typeof body === 'string' ? 'text/plain' : 'application/json';
    response.writeHead(status, { 'Content-Type': contentType, ...headers });
    response.end(text);
  };
}

/** Answers 200 with a chat completion whose first choice says `text`; `usage: null` leaves usage out. */
export function completion(
  text: string,
  usage: { prompt_tokens: number; completion_tokens: number } | null = {
    prompt_tokens: 12,
    completion_tokens: 3,
  },
): Handler {
  return reply(200, {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    ...(usage === null
      ? {}
      : { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } }),
  });
}

/** Never answers: the request hangs until the client gives up or the server closes. */
export function hang(): Handler {
  return () => undefined;
}
