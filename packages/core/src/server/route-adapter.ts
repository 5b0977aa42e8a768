/**
 * Turns express's request and response into the core's RouteRequest and RouteResponse, so a
 * route handler sees only what the core promises, whatever express adds.
 */
import type { Request, Response } from 'express';
import type { RouteRequest, RouteResponse } from './route.js';

/**
 * The request a route handler reads.
 *
 * @param request - The express request, its body already parsed.
 * @param requestId - The request's correlation id.
 * @param locals - What middleware put in express's `response.locals`.
 * @returns The handler's view of it.
 */
export function routeRequestOf(
  request: Request,
  requestId: string,
  locals: Readonly<Record<string, unknown>>,
): RouteRequest {
  const url = request.originalUrl;
  return {
    requestId,
    method: request.method,
    path: request.path,
    url,
    params: paramsOf(request.params as Record<string, string | string[] | undefined>),
    query: queryOf(url),
    headers: request.headers,
    body: request.body as unknown,
    connection: connectionOf(request.socket),
    locals,
    header(name) {
      const value = request.headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/**
 * The response a route handler answers through.
 *
 * @param response - The express response.
 * @returns The handler's view of it.
 */
export function routeResponseOf(response: Response): RouteResponse {
  const answer: RouteResponse = {
    get headersSent() {
      return response.headersSent;
    },
    status(code) {
      response.status(code);
      return answer;
    },
    set(name, value) {
      response.setHeader(name, value);
      return answer;
    },
    json(body) {
      response.json(body);
    },
    send(text) {
      // Not express's default of text/html: a handler's text is not meant to be a page.
      if (!response.hasHeader('content-type')) {
        response.setHeader('Content-Type', 'text/plain; charset=utf-8');
      }
      response.send(String(text));
    },
    end() {
      response.end();
    },
  };
  return answer;
}

/** One token per socket: a handler can tell connections apart but cannot reach the socket. */
const connections = new WeakMap<object, object>();

function connectionOf(socket: object): object {
  let token = connections.get(socket);
  if (token === undefined) {
    token = Object.freeze({});
    connections.set(socket, token);
  }
  return token;
}

function paramsOf(
  params: Readonly<Record<string, string | string[] | undefined>>,
): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join('/') : value;
  }
  return flat;
}

/**
 * The query string's parameters, read the same way whatever express's query parser is. The object
 * has no prototype, as Node's `headers` has none: a parameter named `constructor`, `toString` or
 * `__proto__` is read as the client sent it, and one not sent is absent rather than inherited.
 */
function queryOf(url: string): Record<string, string | string[]> {
  const query = Object.create(null) as Record<string, string | string[]>;
  const search = url.indexOf('?');
  if (search === -1) return query;
  for (const [name, value] of new URLSearchParams(url.slice(search + 1))) {
    const known = query[name];
    if (known === undefined) query[name] = value;
    else query[name] = Array.isArray(known) ? [...known, value] : [known, value];
  }
  return query;
}
