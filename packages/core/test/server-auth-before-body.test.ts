import type { Runtime, TriggerRoute } from '@weft/core';
import { ServerManager } from '@weft/core/node';
import type { NextFunction, Request, Response } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from './fixtures.js';

// Guards docs/guides/production.md, "Require a token for triggers": middleware added to
// `server.app` before start runs before a trigger route reads its body.

const servers: ServerManager[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

const TOKEN = 'a-token-long-enough-for-the-test-0123456789';
const TWO_MEGABYTES = JSON.stringify({ text: 'x'.repeat(2 * 1024 * 1024) });

function requireToken(request: Request, response: Response, next: NextFunction): void {
  if (request.get('authorization') === `Bearer ${TOKEN}`) {
    next();
    return;
  }
  response.status(401).json({ error: { status: 401, message: 'Unauthorized' } });
}

/** A server whose `/messages` trigger route is guarded by `requireToken`, as a plugin's would be. */
async function guardedServer(handled: unknown[]): Promise<ServerManager> {
  const server = new ServerManager({ port: 0 }, silentLogger);
  servers.push(server);
  server.app.use('/messages', requireToken);
  const route: TriggerRoute = {
    type: 'route',
    id: 'message',
    method: 'POST',
    path: '/messages',
    handler: (request, response) => {
      handled.push(request.body);
      response.json({ ok: true });
    },
  };
  server.mount('test-plugin', route, {} as Runtime);
  await server.start();
  return server;
}

function post(server: ServerManager, path: string, body: string, token?: string) {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body,
  });
}

describe('authentication middleware runs before the body is read', () => {
  it('answers an unauthenticated 2 MB body with 401, not 413, and never runs the route [claim:httpchat-auth-middleware] [claim:prod-auth-before-body]', async () => {
    const handled: unknown[] = [];
    const server = await guardedServer(handled);
    const response = await post(server, '/messages', TWO_MEGABYTES);
    expect(response.status).toBe(401);
    expect(handled).toEqual([]);
  });

  it('still answers an authenticated body over the limit with 413', async () => {
    const handled: unknown[] = [];
    const server = await guardedServer(handled);
    const response = await post(server, '/messages', TWO_MEGABYTES, TOKEN);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'WEFT_BAD_REQUEST',
    );
    expect(handled).toEqual([]);
  });

  it('parses the body of an authenticated request for the route', async () => {
    const handled: unknown[] = [];
    const server = await guardedServer(handled);
    const response = await post(server, '/messages', '{"text":"hi"}', TOKEN);
    expect(response.status).toBe(200);
    expect(handled).toEqual([{ text: 'hi' }]);
  });

  it('answers an unauthenticated malformed body with 401, not 400 [claim:prod-auth-before-body]', async () => {
    const server = await guardedServer([]);
    const response = await post(server, '/messages', '{not json');
    expect(response.status).toBe(401);
  });

  it('gives a route added to app the same parser and limits through jsonBody [claim:prod-json-body]', async () => {
    const server = new ServerManager({ port: 0, bodyLimit: 100 }, silentLogger);
    servers.push(server);
    server.app.post('/own', server.jsonBody, (request, response) => {
      response.json({ got: request.body as unknown });
    });
    await server.start();
    const small = await post(server, '/own', '{"a":1}');
    expect(await small.json()).toEqual({ got: { a: 1 } });
    const large = await post(server, '/own', JSON.stringify({ a: 'x'.repeat(200) }));
    expect(large.status).toBe(413);
  });
});

describe('a trigger route without middleware', () => {
  it('keeps answering a body over the limit with 413 before its handler runs [claim:httpchat-413]', async () => {
    const handled: unknown[] = [];
    const server = new ServerManager({ port: 0 }, silentLogger);
    servers.push(server);
    const route: TriggerRoute = {
      type: 'route',
      id: 'open',
      method: 'POST',
      path: '/open',
      handler: (request, response) => {
        handled.push(request.body);
        response.json({});
      },
    };
    server.mount('test-plugin', route, {} as Runtime);
    await server.start();
    const response = await post(server, '/open', TWO_MEGABYTES);
    expect(response.status).toBe(413);
    expect(handled).toEqual([]);
  });
});
