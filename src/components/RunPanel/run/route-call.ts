/**
 * Calls a plugin's route trigger in a page, where no HTTP server serves it: the handler gets
 * what express would give it for a JSON request (the parsed body, and the request id the
 * runtime's server puts in `response.locals`), and its answer is collected instead of sent.
 * Only what route handlers of the examples use is provided: the request's headers and body, and
 * the response's `status`, `json` and `locals`.
 */
import type { Runtime, TriggerRoute } from '@weft/core';

/** What the handler answered. */
export interface RouteAnswer {
  status: number;
  body: unknown;
}

type HandlerRequest = Parameters<TriggerRoute['handler']>[0];
type HandlerResponse = Parameters<TriggerRoute['handler']>[1];

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
  const response = {
    locals: { requestId },
    status(code: number) {
      statusCode = code;
      return response;
    },
    json(value: unknown) {
      answer = { status: statusCode, body: value };
      return response;
    },
  };
  const request = {
    method: route.method,
    path: route.path,
    headers: { ...headers, 'content-type': 'application/json' },
    body,
  };
  await route.handler(
    request as unknown as HandlerRequest,
    response as unknown as HandlerResponse,
    runtime,
  );
  if (answer === undefined) {
    throw new Error(`the handler of ${route.method} ${route.path} returned without answering`);
  }
  return answer;
}
