/**
 * Calls a plugin's route trigger in a page, where no HTTP server serves it: the handler gets the
 * core's RouteRequest for a JSON request (the parsed body and a request id, as the runtime's
 * server gives it), and its answer is collected instead of sent.
 */
import type { RouteRequest, RouteResponse, Runtime, TriggerRoute } from '@weft/core';

/** What the handler answered. */
export interface RouteAnswer {
  status: number;
  body: unknown;
}

/**
 * Runs `route`'s handler with a JSON `body`, and the request `headers` a client would send
 * besides its content type (such as `authorization`), and waits for its answer.
 *
 * @throws Error when the handler returns without answering.
 */
export async function callRoute(
  route: TriggerRoute,
  body: unknown,
  runtime: Runtime,
  requestId: string,
  headers: Readonly<Record<string, string>> = {},
): Promise<RouteAnswer> {
  let answer: RouteAnswer | undefined;
  let statusCode = 200;
  const finish = (value: unknown): void => {
    answer = { status: statusCode, body: value };
  };
  const response: RouteResponse = {
    get headersSent() {
      return answer !== undefined;
    },
    status(code) {
      statusCode = code;
      return response;
    },
    set: () => response,
    json: finish,
    send: finish,
    end: () => finish(undefined),
  };
  const sent: Record<string, string> = { 'content-type': 'application/json' };
  for (const [name, value] of Object.entries(headers)) sent[name.toLowerCase()] = value;
  const request: RouteRequest = {
    requestId,
    method: route.method,
    path: route.path,
    url: route.path,
    params: {},
    query: {},
    headers: sent,
    body,
    // Each call stands for a connection of its own.
    connection: {},
    locals: { requestId },
    header: (name) => sent[name.toLowerCase()],
  };
  await route.handler(request, response, runtime);
  if (answer === undefined) {
    throw new Error(`the handler of ${route.method} ${route.path} returned without answering`);
  }
  return answer;
}
