/**
 * The server's Origin check: a web page of another site cannot make a visitor's browser run a
 * route (a form POST needs no CORS preflight), while curl, servers and the server's own pages
 * go on.
 */
import { request as httpRequest } from 'node:http';
import { WeftError, type TriggerRoute } from '@weft/core';
import { ServerManager } from '@weft/core/node';
import { ORIGIN_HOOK_TIMEOUT_MS } from '../src/server/allowed-origins.js';
import { describe, expect, it } from 'vitest';
import { capturingLogger } from '@weft-internal/test-support/capturing-logger';
import { startServer } from './fixtures.js';

/** A server with one POST /echo route that counts its runs, and its log lines. */
async function serve(config: ConstructorParameters<typeof ServerManager>[0] = {}) {
  const runs: unknown[] = [];
  const { logger, lines: logs } = capturingLogger('info');
  const route: TriggerRoute = {
    type: 'route',
    id: 'echo',
    method: 'POST',
    path: '/echo',
    handler: (request, response) => {
      runs.push(request.body);
      response.json({ ran: true });
    },
  };
  const server = await startServer([route], config, { logger });
  return { server, runs, logs };
}

/** Sends a request with exactly the given headers (fetch would not let us set Host or Origin). */
function send(
  url: string,
  headers: Record<string, string>,
  body = '{"message":"run a task"}',
  deadlineMs = 5_000,
): Promise<{ status: number; json: { error?: Record<string, unknown> } }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: 'POST', headers }, (incoming) => {
      let text = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (text += chunk));
      incoming.on('end', () =>
        resolve({
          status: incoming.statusCode ?? 0,
          json: JSON.parse(text) as { error?: Record<string, unknown> },
        }),
      );
    });
    outgoing.setTimeout(deadlineMs, () =>
      outgoing.destroy(new Error(`no answer within ${deadlineMs} ms`)),
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe('ServerManager Origin check', () => {
  it('refuses a cross-site text/plain form POST with 403 WEFT_ORIGIN_NOT_ALLOWED, and the route does not run [claim:trig-host-first] [claim:trig-403-origin] [claim:prod-origin-refused] [claim:tsdoc-server-default-allowed-origins] [claim:tsdoc-server-origin-refused] [claim:errors-403-cause] [claim:obs-origin-refused-line] [claim:errors-origin-section]', async () => {
    const { server, runs, logs } = await serve();
    const answer = await send(
      `${server.url}/echo`,
      { origin: 'https://attacker.example', 'content-type': 'text/plain' },
      'room=42&message=hi',
    );
    expect(answer.status).toBe(403);
    expect(answer.json.error).toMatchObject({
      status: 403,
      code: 'WEFT_ORIGIN_NOT_ALLOWED',
      message: 'Origin "https://attacker.example" is not allowed to call this server',
      docsUrl: 'https://weft-ai.github.io/docs/reference/errors/#weft_origin_not_allowed',
    });
    expect(runs).toEqual([]);
    // The log line names the refused origin and the option to change, under the request id.
    expect(logs.find((line) => line.requestId === answer.json.error?.requestId)).toMatchObject({
      level: 40,
      origin: 'https://attacker.example',
      method: 'POST',
      path: '/echo',
      msg: expect.stringContaining('options.server.allowedOrigins'),
    });
    // Refused before its body is read: a body over the limit gets 403, not the parser's 413.
    const small = await serve({ bodyLimit: 16 });
    const large = await send(
      `${small.server.url}/echo`,
      { origin: 'https://attacker.example', 'content-type': 'application/json' },
      JSON.stringify({ message: 'x'.repeat(1_000) }),
    );
    expect(large.status).toBe(403);
    expect(large.json.error?.code).toBe('WEFT_ORIGIN_NOT_ALLOWED');
    expect(small.runs).toEqual([]);
  });

  it('runs the route for a request without Origin and for one from the server’s own origin [claim:trig-allowed-origins] [claim:prod-origin-none-passes] [claim:errors-origin-section] [claim:tsdoc-server-origin-pass]', async () => {
    const { server, runs } = await serve();
    const json = { 'content-type': 'application/json' };
    expect((await send(`${server.url}/echo`, json)).status).toBe(200);
    const own = await send(`${server.url}/echo`, { ...json, origin: server.url as string });
    expect(own.status).toBe(200);
    expect(runs).toHaveLength(2);
  });

  it('takes an Origin for the server’s own when the Host header writes out its default port, as a proxy may, and only that port [claim:cfg-allowed-origins-own]', async () => {
    const { server, runs } = await serve();
    const json = { 'content-type': 'application/json' };
    const status = async (host: string, origin: string) =>
      (await send(`${server.url}/echo`, { ...json, host, origin })).status;
    // The scheme aside, the origin's host and port are the Host header's, written either way.
    expect(await status('localhost:443', 'https://localhost')).toBe(200);
    expect(await status('localhost:80', 'http://localhost')).toBe(200);
    expect(await status('localhost', 'https://localhost')).toBe(200);
    expect(await status('localhost:8443', 'https://localhost:8443')).toBe(200);
    expect(runs).toHaveLength(4);
    // Another port is another origin: http's default is 80, not 443.
    expect(await status('localhost:443', 'http://localhost')).toBe(403);
    expect(await status('localhost:8443', 'https://localhost')).toBe(403);
    expect(await status('localhost', 'https://localhost:8443')).toBe(403);
    const refused = await send(`${server.url}/echo`, {
      ...json,
      host: 'localhost:443',
      origin: 'http://localhost',
    });
    expect(refused.json.error).toMatchObject({ code: 'WEFT_ORIGIN_NOT_ALLOWED' });
    // So is a browser's request without Origin that comes from another site.
    for (const site of ['cross-site', 'same-site']) {
      const noOrigin = await send(`${server.url}/echo`, { ...json, 'sec-fetch-site': site });
      expect(noOrigin.status).toBe(403);
    }
    expect(runs).toHaveLength(4);
  });

  it('refuses Origin null and a cross-site or same-site Sec-Fetch-Site without Origin [claim:prod-origin-none-passes] [claim:trig-403-origin] [claim:trig-allowed-origins] [claim:tsdoc-server-origin-refused] [claim:errors-origin-section]', async () => {
    const { server, runs } = await serve();
    const json = { 'content-type': 'application/json' };
    expect((await send(`${server.url}/echo`, { ...json, origin: 'null' })).status).toBe(403);
    for (const site of ['cross-site', 'same-site']) {
      const navigation = await send(`${server.url}/echo`, { ...json, 'sec-fetch-site': site });
      expect(navigation.status, site).toBe(403);
      expect(navigation.json.error?.code, site).toBe('WEFT_ORIGIN_NOT_ALLOWED');
    }
    const sameOrigin = await send(`${server.url}/echo`, {
      ...json,
      'sec-fetch-site': 'same-origin',
    });
    expect(sameOrigin.status).toBe(200);
    expect(runs).toHaveLength(1);
  });

  it('refuses a cross-site request without Origin whatever allowedOrigins lists and cors allows; only allowedOrigins: true lets it through [claim:errors-origin-fetch-site-fix] [claim:cfg-cors-fetch-site]', async () => {
    const headers = { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' };
    const listed = await serve({ allowedOrigins: ['https://chat.example.com'], cors: true });
    const refused = await send(`${listed.server.url}/echo`, headers);
    expect(refused.status).toBe(403);
    expect(refused.json.error?.code).toBe('WEFT_ORIGIN_NOT_ALLOWED');
    expect(listed.runs).toHaveLength(0);
    const open = await serve({ allowedOrigins: true });
    expect((await send(`${open.server.url}/echo`, headers)).status).toBe(200);
    expect(open.runs).toHaveLength(1);
  });

  it('logs a browser request without Origin, refused for its Sec-Fetch-Site, with that header in place of the origin [claim:obs-origin-fetch-site-line]', async () => {
    const { server, logs } = await serve();
    const answer = await send(`${server.url}/echo`, {
      'content-type': 'application/json',
      'sec-fetch-site': 'cross-site',
    });
    expect(answer.status).toBe(403);
    expect(logs.find((line) => line.requestId === answer.json.error?.requestId)).toMatchObject({
      level: 40,
      origin: '(none; Sec-Fetch-Site: cross-site)',
      msg: expect.stringMatching(
        /^refused a request from the web page origin "\(none; Sec-Fetch-Site: cross-site\)": /,
      ),
    });
  });

  it('takes the origins listed in allowedOrigins, and every origin with allowedOrigins: true [claim:httpchat-origin] [claim:trig-allowed-origins] [claim:prod-origin-refused] [claim:tsdoc-server-origin-pass] [claim:errors-origin-section]', async () => {
    const { server, runs } = await serve({ allowedOrigins: ['https://chat.example.com'] });
    const json = { 'content-type': 'application/json' };
    expect(
      (await send(`${server.url}/echo`, { ...json, origin: 'https://CHAT.example.com:443' }))
        .status,
    ).toBe(200);
    expect(
      (await send(`${server.url}/echo`, { ...json, origin: 'https://chat.example.com.evil' }))
        .status,
    ).toBe(403);
    const open = await serve({ allowedOrigins: true });
    expect(
      (await send(`${open.server.url}/echo`, { ...json, origin: 'https://anyone.example' })).status,
    ).toBe(200);
    expect(runs).toHaveLength(1);
    expect(open.runs).toHaveLength(1);
  });

  it("takes a browser extension's or an app's origin listed in allowedOrigins (chrome-extension://id, capacitor://localhost), refuses others of those schemes, and never takes one for the server's own [claim:trig-allowed-origins-schemes] [claim:cfg-allowed-origins-schemes] [claim:tsdoc-server-origin-schemes]", async () => {
    const listed = ['chrome-extension://abcdefghijklmnop', 'capacitor://localhost'];
    const { server, runs } = await serve({ allowedOrigins: listed });
    const json = { 'content-type': 'application/json' };
    for (const origin of [...listed, 'Chrome-Extension://ABCDEFGHIJKLMNOP']) {
      expect((await send(`${server.url}/echo`, { ...json, origin })).status, origin).toBe(200);
    }
    expect(runs).toHaveLength(3);
    for (const origin of ['chrome-extension://ponmlkjihgfedcba', 'capacitor://evil', 'null']) {
      const refused = await send(`${server.url}/echo`, { ...json, origin });
      expect(refused.status, origin).toBe(403);
      expect(refused.json.error?.code, origin).toBe('WEFT_ORIGIN_NOT_ALLOWED');
    }
    // An app's origin is not the server's own, though its host is the request's Host: a server
    // that does not list capacitor://localhost refuses it on localhost as anywhere else.
    const unlisted = await serve();
    const asLocalhost = await send(`${unlisted.server.url}/echo`, {
      ...json,
      host: 'localhost',
      origin: 'capacitor://localhost',
    });
    expect(asLocalhost.status).toBe(403);
    expect(unlisted.runs).toEqual([]);
  });

  it('lets through the origins the cors option allows, and only those [claim:httpchat-origin] [claim:trig-403-origin] [claim:trig-cors] [claim:prod-origin-refused] [claim:tsdoc-server-cors-origins] [claim:errors-origin-section]', async () => {
    const json = { 'content-type': 'application/json' };
    const listed = await serve({
      cors: { origin: ['https://app.example.com', /\.trusted\.example$/] },
    });
    expect(
      (await send(`${listed.server.url}/echo`, { ...json, origin: 'https://app.example.com' }))
        .status,
    ).toBe(200);
    expect(
      (await send(`${listed.server.url}/echo`, { ...json, origin: 'https://a.trusted.example' }))
        .status,
    ).toBe(200);
    expect(
      (await send(`${listed.server.url}/echo`, { ...json, origin: 'https://other.example' }))
        .status,
    ).toBe(403);
    const asked = await serve({
      cors: { origin: (origin, callback) => callback(null, origin === 'https://fn.example') },
    });
    expect(
      (await send(`${asked.server.url}/echo`, { ...json, origin: 'https://fn.example' })).status,
    ).toBe(200);
    expect(
      (await send(`${asked.server.url}/echo`, { ...json, origin: 'https://no.example' })).status,
    ).toBe(403);
    const all = await serve({ cors: true });
    expect(
      (await send(`${all.server.url}/echo`, { ...json, origin: 'https://any.example' })).status,
    ).toBe(200);
  });

  it("matches the entries of a cors origin list as the middleware does: a string exactly, a true allows every origin, a '*' none [claim:cfg-cors-origins-pass]", async () => {
    const json = { 'content-type': 'application/json' };
    const origin = 'https://other.example';
    // The middleware reflects any origin for a list holding true, and allows none for a list
    // whose '*' it compares as a string: the check lets through what the middleware allows.
    const withTrue = await serve({ cors: { origin: ['https://app.example.com', true] } });
    expect((await send(`${withTrue.server.url}/echo`, { ...json, origin })).status).toBe(200);
    const withStar = await serve({ cors: { origin: ['*'] } });
    expect((await send(`${withStar.server.url}/echo`, { ...json, origin })).status).toBe(403);
    expect(withStar.runs).toHaveLength(0);
    // A function's answer is read the same way.
    const answered = await serve({
      cors: { origin: (_origin, callback) => callback(null, ['*']) },
    });
    expect((await send(`${answered.server.url}/echo`, { ...json, origin })).status).toBe(403);
    // A '*' on its own allows every origin, as it does for the middleware.
    const star = await serve({ cors: { origin: '*' } });
    expect((await send(`${star.server.url}/echo`, { ...json, origin })).status).toBe(200);
    // A string is the origin byte for byte: with a slash or capitals, no browser would match it.
    const slashed = await serve({
      cors: { origin: ['https://other.example/', 'HTTPS://x.example'] },
    });
    expect((await send(`${slashed.server.url}/echo`, { ...json, origin })).status).toBe(403);
    const cased = await serve({ cors: { origin: 'https://Other.example' } });
    expect((await send(`${cased.server.url}/echo`, { ...json, origin })).status).toBe(403);
  });

  it('matches a cors origin RegExp with the g or y flag the same way on every request, as if from the start of the origin [claim:cfg-cors-regexp-flags] [claim:tsdoc-server-cors-regexp-flags] [claim:trig-cors-regexp-flags]', async () => {
    /** Status and Access-Control-Allow-Origin of a JSON POST from `origin`. */
    const post = (url: string | undefined, origin: string) =>
      new Promise<{ status: number; allowOrigin: unknown }>((resolve, reject) => {
        const outgoing = httpRequest(
          `${url}/echo`,
          { method: 'POST', headers: { 'content-type': 'application/json', origin } },
          (incoming) => {
            incoming.resume();
            resolve({
              status: incoming.statusCode ?? 0,
              allowOrigin: incoming.headers['access-control-allow-origin'],
            });
          },
        );
        outgoing.on('error', reject);
        outgoing.end('{}');
      });
    const origin = 'https://app.example.com';
    const allowed = { status: 200, allowOrigin: origin };
    // A global RegExp's test() goes on from where the last match ended: tested as it is, the
    // second request from the same origin would be refused and the third let in again.
    const global = /example\.com$/g;
    const listed = await serve({ cors: { origin: ['https://other.example', global] } });
    for (let i = 0; i < 3; i++) expect(await post(listed.server.url, origin)).toEqual(allowed);
    expect(global.lastIndex).toBe(0);
    const single = await serve({ cors: { origin: /example\.com$/gi } });
    for (let i = 0; i < 3; i++) expect(await post(single.server.url, origin)).toEqual(allowed);
    // A function may answer with the same global RegExp each time.
    const answer = /example\.com$/g;
    const asked = await serve({ cors: { origin: (_origin, callback) => callback(null, answer) } });
    for (let i = 0; i < 3; i++) expect(await post(asked.server.url, origin)).toEqual(allowed);
    // The y flag still anchors the match at the origin's first character, on every request.
    const sticky = await serve({ cors: { origin: /https:\/\/app\./y } });
    for (let i = 0; i < 3; i++) expect(await post(sticky.server.url, origin)).toEqual(allowed);
    expect(sticky.runs).toHaveLength(3);
    const anchored = await serve({ cors: { origin: /app\.example\.com/y } });
    expect((await post(anchored.server.url, origin)).status).toBe(403);
    expect(anchored.runs).toEqual([]);
  });

  it('reads an origin list as the cors middleware does: true in it lets every origin through, and a "*" in it none [claim:trig-cors] [claim:trig-403-origin]', async () => {
    const json = { 'content-type': 'application/json' };
    // The middleware allows every origin for a list holding true, and sends it back.
    const withTrue = await serve({ cors: { origin: [true, 'https://app.example.com'] } });
    const allowed = await new Promise<{ status: number; allowOrigin: unknown }>(
      (resolve, reject) => {
        const outgoing = httpRequest(
          `${withTrue.server.url}/echo`,
          { method: 'POST', headers: { ...json, origin: 'https://any.example' } },
          (incoming) => {
            incoming.resume();
            resolve({
              status: incoming.statusCode ?? 0,
              allowOrigin: incoming.headers['access-control-allow-origin'],
            });
          },
        );
        outgoing.on('error', reject);
        outgoing.end('{}');
      },
    );
    expect(allowed).toEqual({ status: 200, allowOrigin: 'https://any.example' });
    // A "*" in a list is a string no origin equals: the middleware allows nobody by it.
    const withStar = await serve({ cors: { origin: ['*'] } });
    const refused = await send(`${withStar.server.url}/echo`, {
      ...json,
      origin: 'https://any.example',
    });
    expect(refused.status).toBe(403);
    expect(refused.json.error?.code).toBe('WEFT_ORIGIN_NOT_ALLOWED');
    expect(withStar.runs).toEqual([]);
    const fromFunction = await serve({
      cors: { origin: (_origin, callback) => callback(null, ['*']) },
    });
    expect(
      (await send(`${fromFunction.server.url}/echo`, { ...json, origin: 'https://any.example' }))
        .status,
    ).toBe(403);
  });

  it('refuses an origin the cors origin function has not answered within 5 s, and logs it [claim:tsdoc-server-cors-origin-deadline] [claim:obs-cors-origin-timeout] [claim:cfg-cors-origin-deadline]', async () => {
    const asked: string[] = [];
    const hung = await serve({
      cors: {
        // A lookup that never calls back, as one waiting on a database that hangs.
        origin: (origin) => {
          asked.push(String(origin));
        },
      },
    });
    const started = Date.now();
    const answer = await send(
      `${hung.server.url}/echo`,
      { 'content-type': 'application/json', origin: 'https://slow.example' },
      undefined,
      ORIGIN_HOOK_TIMEOUT_MS + 3_000,
    );
    expect(answer.status).toBe(403);
    expect(answer.json.error).toMatchObject({ code: 'WEFT_ORIGIN_NOT_ALLOWED' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(ORIGIN_HOOK_TIMEOUT_MS - 100);
    expect(Date.now() - started).toBeLessThan(ORIGIN_HOOK_TIMEOUT_MS + 3_000);
    expect(asked).toEqual(['https://slow.example']);
    expect(hung.runs).toEqual([]);
    expect(hung.logs).toContainEqual(
      expect.objectContaining({
        origin: 'https://slow.example',
        msg: 'the cors origin function did not answer in time; the origin is refused',
      }),
    );
  }, 15_000);

  it('runs the route, late and without CORS headers, for an origin the origin check let in when the cors origin function does not answer [claim:obs-cors-origin-timeout-passed]', async () => {
    const asked: string[] = [];
    const hung = await serve({
      allowedOrigins: ['https://listed.example'],
      cors: {
        origin: (origin) => {
          asked.push(String(origin));
        },
      },
    });
    const started = Date.now();
    const answer = await new Promise<{ status: number; allowOrigin: unknown }>(
      (resolve, reject) => {
        const outgoing = httpRequest(
          `${hung.server.url}/echo`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: 'https://listed.example' },
          },
          (incoming) => {
            incoming.resume();
            incoming.on('end', () =>
              resolve({
                status: incoming.statusCode ?? 0,
                allowOrigin: incoming.headers['access-control-allow-origin'],
              }),
            );
          },
        );
        outgoing.setTimeout(ORIGIN_HOOK_TIMEOUT_MS + 3_000, () =>
          outgoing.destroy(new Error('no answer')),
        );
        outgoing.on('error', reject);
        outgoing.end('{"message":"run a task"}');
      },
    );
    // The origin check passed it without asking; the cors middleware asked, and waited 5 s.
    expect(asked).toEqual(['https://listed.example']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(ORIGIN_HOOK_TIMEOUT_MS - 100);
    expect(answer).toEqual({ status: 200, allowOrigin: undefined });
    expect(hung.runs).toHaveLength(1);
    expect(hung.logs).toContainEqual(
      expect.objectContaining({
        origin: 'https://listed.example',
        msg: 'the cors origin function did not answer in time; the origin is refused',
      }),
    );
  }, 15_000);

  it('asks a hung cors origin function about a request with no Origin too: the route runs 5 s late, and the line has no origin [claim:obs-cors-origin-timeout-no-origin]', async () => {
    const asked: unknown[] = [];
    const hung = await serve({
      cors: {
        origin: (origin) => {
          asked.push(origin);
        },
      },
    });
    const started = Date.now();
    // As curl or another server sends it: no Origin, no Sec-Fetch-Site.
    const status = await new Promise<number>((resolve, reject) => {
      const outgoing = httpRequest(
        `${hung.server.url}/echo`,
        { method: 'POST', headers: { 'content-type': 'application/json' } },
        (incoming) => {
          incoming.resume();
          incoming.on('end', () => resolve(incoming.statusCode ?? 0));
        },
      );
      outgoing.setTimeout(ORIGIN_HOOK_TIMEOUT_MS + 3_000, () =>
        outgoing.destroy(new Error('no answer')),
      );
      outgoing.on('error', reject);
      outgoing.end('{"message":"run a task"}');
    });
    expect(asked).toEqual([undefined]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(ORIGIN_HOOK_TIMEOUT_MS - 100);
    expect(status).toBe(200);
    expect(hung.runs).toHaveLength(1);
    const late = hung.logs.filter(
      (line) =>
        line.msg === 'the cors origin function did not answer in time; the origin is refused',
    );
    expect(late).toHaveLength(1);
    expect(late[0]).toMatchObject({ level: 40, timeoutMs: ORIGIN_HOOK_TIMEOUT_MS });
    expect(late[0]).not.toHaveProperty('origin');
  }, 15_000);

  it.each([
    [['https://chat.example.com/app']],
    [['null']],
    ['all'],
    [['file:///index.html']],
    [['file://server']],
    [['data:text/html,hi']],
    [['chrome-extension://abcdefghijklmnop/popup.html']],
  ])(
    'refuses allowedOrigins %j naming the option [claim:tsdoc-server-constructor] [claim:tsdoc-server-origin-schemes]',
    (allowedOrigins) => {
      let thrown: unknown;
      try {
        new ServerManager({ allowedOrigins: allowedOrigins as never });
      } catch (error) {
        thrown = error;
      }
      expect(WeftError.is(thrown, 'WEFT_INVALID_ARGUMENT')).toBe(true);
      expect((thrown as Error).message).toContain('option "allowedOrigins" must');
    },
  );
});
