/**
 * The upgrade gate, called on its own with requests as it reads them: the order of its checks
 * and what counts as an answer of `authenticate`.
 */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ChatAccess } from '@weft/plugin-chat';
import { invalid, resolveOptions, type WebSocketPluginOptions } from '../src/options.js';
import { upgradeGate } from '../src/upgrade-gate.js';

/** A handshake's headers, as a websocket client sends them. */
const HANDSHAKE = {
  upgrade: 'websocket',
  'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
  'sec-websocket-version': '13',
};

/**
 * An upgrade request as the gate reads it: a GET handshake, its URL and other headers, and those
 * headers as they came (`rawHeaders`), where `extraRaw` adds the lines Node's `headers` drops.
 */
function upgrade(
  headers: Record<string, string>,
  url = '/ws',
  method = 'GET',
  extraRaw: string[] = [],
): IncomingMessage {
  const all = { ...HANDSHAKE, ...headers };
  const rawHeaders = [...Object.entries(all).flat(), ...extraRaw];
  return {
    method,
    url,
    headers: all,
    rawHeaders,
    httpVersionMajor: 1,
    httpVersionMinor: 1,
  } as unknown as IncomingMessage;
}

function gate(options: WebSocketPluginOptions) {
  const resolved = resolveOptions(options);
  return upgradeGate(resolved, new ChatAccess(resolved, invalid), () => undefined);
}

describe('upgradeGate', () => {
  it('checks in order: path, Host, Origin, the connection cap, then authenticate [claim:tsdoc-ws-options-no-origin] [claim:tsdoc-ws-gate-order]', async () => {
    const asked: string[] = [];
    const check = gate({
      maxConnections: 1,
      allowedOrigins: ['https://chat.example.com'],
      authenticate: (request) => {
        asked.push(String(request.headers.host));
        return { user: 'ada' };
      },
    });
    const everythingWrong = { host: 'rebound.example', origin: 'https://evil.example' };
    const refusal = async (request: IncomingMessage, open: number) => {
      const verdict = await check(request, 'r-1', open);
      return 'refused' in verdict ? [verdict.refused.status, verdict.refused.code] : 'admitted';
    };
    expect(await refusal(upgrade(everythingWrong, '/other'), 5)).toEqual([
      404,
      'WEFT_WS_UPGRADE_REQUIRED',
    ]);
    expect(await refusal(upgrade(everythingWrong), 5)).toEqual([403, 'WEFT_HOST_NOT_ALLOWED']);
    expect(
      await refusal(upgrade({ host: 'localhost', origin: 'https://evil.example' }), 5),
    ).toEqual([403, 'WEFT_WS_ORIGIN_NOT_ALLOWED']);
    expect(
      await refusal(upgrade({ host: 'localhost', origin: 'https://chat.example.com' }), 1),
    ).toEqual([503, 'WEFT_WS_TOO_MANY_CONNECTIONS']);
    expect(asked).toEqual([]);
    // A client that sends no Origin is no browser: it goes on to authenticate.
    expect(await refusal(upgrade({ host: 'localhost' }), 0)).toBe('admitted');
    expect(asked).toEqual(['localhost']);
  });

  it('checks the Sec-WebSocket-Origin of a version 8 handshake as it checks Origin, and both when both come [claim:wsdoc-origin] [claim:wsreadme-order]', async () => {
    const check = gate({ allowedOrigins: ['https://chat.example.com'], trustClientUser: true });
    const verdictOf = async (headers: Record<string, string>) => {
      const verdict = await check(upgrade({ host: 'localhost', ...headers }), 'r-1', 0);
      return 'refused' in verdict ? verdict.refused.code : 'admitted';
    };
    const version8 = { 'sec-websocket-version': '8' };
    expect(await verdictOf({ ...version8, 'sec-websocket-origin': 'https://evil.example' })).toBe(
      'WEFT_WS_ORIGIN_NOT_ALLOWED',
    );
    expect(
      await verdictOf({ ...version8, 'sec-websocket-origin': 'https://chat.example.com' }),
    ).toBe('admitted');
    expect(
      await verdictOf({
        origin: 'https://chat.example.com',
        'sec-websocket-origin': 'https://evil.example',
      }),
    ).toBe('WEFT_WS_ORIGIN_NOT_ALLOWED');
    expect(
      await gate({ allowedOrigins: true, trustClientUser: true })(
        upgrade({ host: 'localhost', 'sec-websocket-origin': 'https://evil.example' }),
        'r-2',
        0,
      ),
    ).toEqual({ admitted: {} });
  });

  it('refuses an HTTP/1.0 upgrade with 400 WEFT_BAD_REQUEST, after the path and before the transfer coding, the handshake, Host and authenticate [claim:wsdoc-http10] [claim:tsdoc-ws-gate-order] [claim:wsreadme-order] [claim:errors-bad-request-ws-http10]', async () => {
    let asked = 0;
    const check = gate({
      allowedHosts: true,
      authenticate: () => {
        asked += 1;
        return { user: 'ada' };
      },
    });
    const http10 = (request: IncomingMessage): IncomingMessage =>
      Object.assign(request, { httpVersionMinor: 0 });
    const refusal = async (request: IncomingMessage) => {
      const verdict = await check(request, 'r-3', 0);
      return 'refused' in verdict ? verdict.refused : 'admitted';
    };
    // The path comes first.
    expect(await refusal(http10(upgrade({ host: 'localhost' }, '/other')))).toMatchObject({
      status: 404,
    });
    const refused = {
      status: 400,
      code: 'WEFT_BAD_REQUEST',
      message: 'A websocket upgrade must use HTTP/1.1 or later, not HTTP/1.0',
    };
    // A sound handshake, a bad one, and one without Host, which HTTP/1.0 may leave out.
    expect(await refusal(http10(upgrade({ host: 'localhost' })))).toEqual(refused);
    expect(await refusal(http10(upgrade({ host: 'localhost' }, '/ws', 'POST')))).toEqual(refused);
    expect(await refusal(http10(upgrade({})))).toEqual(refused);
    // The version is judged whole before the transfer coding: a Transfer-Encoding the server
    // does not decode (501 over HTTP/1.1) does not hide that the upgrade is HTTP/1.0.
    expect(
      await refusal(http10(upgrade({ host: 'localhost', 'transfer-encoding': 'gzip' }))),
    ).toEqual(refused);
    expect(
      await refusal(upgrade({ host: 'localhost', 'transfer-encoding': 'gzip' })),
    ).toMatchObject({
      status: 501,
    });
    // Another major version gets 505, naming the version an upgrade needs (not the HTTP/1.0 the
    // runtime's server also takes), also with such a Transfer-Encoding.
    const http2 = Object.assign(upgrade({ host: 'localhost', 'transfer-encoding': 'gzip' }), {
      httpVersionMajor: 2,
      httpVersionMinor: 0,
    });
    expect(await refusal(http2)).toEqual({
      status: 505,
      code: 'WEFT_BAD_REQUEST',
      message: 'HTTP/2.0 is not supported: a websocket upgrade needs HTTP/1.1',
    });
    expect(asked).toBe(0);
    // The same request over HTTP/1.1 is admitted.
    expect(await refusal(upgrade({ host: 'localhost' }))).toBe('admitted');
  });

  it('refuses with 426 what is not a websocket handshake, after the path and before Host, naming what is wrong [claim:tsdoc-ws-handshake-problem] [claim:tsdoc-ws-gate-order] [claim:errors-426-cause] [claim:errors-ws-upgrade-required-handshake] [claim:wsreadme-order]', async () => {
    let asked = 0;
    const check = gate({
      authenticate: () => {
        asked += 1;
        return { user: 'ada' };
      },
    });
    const refusal = async (request: IncomingMessage) => {
      const verdict = await check(request, 'r-2', 0);
      return 'refused' in verdict ? verdict.refused : 'admitted';
    };
    const notHandshakes: [IncomingMessage, string][] = [
      [upgrade({ host: 'localhost' }, '/ws', 'POST'), 'the method must be GET, not "POST"'],
      [upgrade({ host: 'localhost', upgrade: 'h2c' }), 'the Upgrade header must be websocket'],
      [upgrade({ host: 'localhost', 'sec-websocket-key': 'short' }), 'Sec-WebSocket-Key'],
      [upgrade({ host: 'localhost', 'sec-websocket-version': '7' }), 'Sec-WebSocket-Version'],
    ];
    for (const [request, problem] of notHandshakes) {
      expect(await refusal(request)).toEqual({
        status: 426,
        code: 'WEFT_WS_UPGRADE_REQUIRED',
        message: expect.stringMatching(/^Not a websocket handshake: .*connect .* to \/ws$/),
      });
      expect(await refusal(request)).toMatchObject({ message: expect.stringContaining(problem) });
    }
    // The path comes first, the Host after.
    expect(await refusal(upgrade({ host: 'localhost', upgrade: 'h2c' }, '/other'))).toMatchObject({
      status: 404,
    });
    expect(await refusal(upgrade({ host: 'rebound.example', upgrade: 'h2c' }))).toMatchObject({
      status: 426,
    });
    expect(asked).toBe(0);
    // Upgrade is read without regard to case, and version 8 is taken as ws takes it.
    expect(
      await refusal(
        upgrade({ host: 'localhost', upgrade: 'WebSocket', 'sec-websocket-version': '8' }),
      ),
    ).toBe('admitted');
  });

  it('lets through the Host names allowedHosts lists, localhost but not a name under it, IP addresses and the host it listens on, a name and its subdomains for .name, and with true or "all" any [claim:wsreadme-allowed-hosts] [claim:wsdoc-host]', async () => {
    const hostOf = async (options: WebSocketPluginOptions, host: string) => {
      const verdict = await gate({ trustClientUser: true, ...options })(
        upgrade({ host }),
        'r-h',
        0,
      );
      return 'refused' in verdict ? verdict.refused.code : 'admitted';
    };
    const listed = { host: 'chat.internal', allowedHosts: ['chat.example.com'] };
    for (const host of [
      'chat.example.com',
      'localhost:3001',
      '203.0.113.7',
      '[::1]:3001',
      'chat.internal',
    ]) {
      expect(await hostOf(listed, host), host).toBe('admitted');
    }
    expect(await hostOf(listed, 'rebound.example')).toBe('WEFT_HOST_NOT_ALLOWED');
    // localhost passes, a name under it does not.
    expect(await hostOf({}, 'app.localhost:3001')).toBe('WEFT_HOST_NOT_ALLOWED');
    expect(await hostOf({}, 'chat.internal')).toBe('WEFT_HOST_NOT_ALLOWED');
    expect(await hostOf({ allowedHosts: true }, 'rebound.example')).toBe('admitted');
    expect(await hostOf({ allowedHosts: 'all' }, 'rebound.example')).toBe('admitted');
    const withSubdomains = { allowedHosts: ['.example.com'] };
    for (const host of ['example.com', 'chat.example.com:3001', 'a.b.example.com']) {
      expect(await hostOf(withSubdomains, host), host).toBe('admitted');
    }
    expect(await hostOf(withSubdomains, 'example.com.evil')).toBe('WEFT_HOST_NOT_ALLOWED');
  });

  it('refuses an upgrade with more than one Host header with 400 WEFT_BAD_REQUEST, whichever comes first and whatever allowedHosts says, after the handshake and before Origin [claim:wsdoc-duplicate-host] [claim:tsdoc-ws-gate-order]', async () => {
    const verdictOf = async (options: WebSocketPluginOptions, request: IncomingMessage) => {
      const verdict = await gate({ trustClientUser: true, ...options })(request, 'r-d', 0);
      return 'refused' in verdict ? verdict.refused : 'admitted';
    };
    const refusal = {
      status: 400,
      code: 'WEFT_BAD_REQUEST',
      message: 'A request must carry one Host header, not 2',
    };
    for (const options of [{}, { allowedHosts: true as const }]) {
      for (const [first, second] of [
        ['localhost', 'rebound.example'],
        ['rebound.example', 'localhost'],
        ['localhost', 'localhost'],
      ] as const) {
        // Node keeps the first in `headers`; the second is only in `rawHeaders`.
        const request = upgrade({ host: first }, '/ws', 'GET', ['host', second]);
        expect(await verdictOf(options, request), `${first} ${second}`).toEqual(refusal);
      }
    }
    const three = upgrade({ host: 'localhost' }, '/ws', 'GET', ['Host', 'a', 'HOST', 'b']);
    expect(await verdictOf({}, three)).toMatchObject({ message: /not 3$/ });
    // After the path and the handshake, before Origin.
    const twice = ['host', 'localhost'];
    expect(
      await verdictOf({}, upgrade({ host: 'localhost' }, '/other', 'GET', twice)),
    ).toMatchObject({ status: 404 });
    expect(await verdictOf({}, upgrade({ host: 'localhost' }, '/ws', 'POST', twice))).toMatchObject(
      {
        status: 426,
      },
    );
    const fromAnotherSite = upgrade(
      { host: 'localhost', origin: 'https://evil.example' },
      '/ws',
      'GET',
      twice,
    );
    expect(await verdictOf({}, fromAnotherSite)).toEqual(refusal);
    // One Host header passes on.
    expect(await verdictOf({}, upgrade({ host: 'localhost' }))).toBe('admitted');
  });

  it('admits with the user authenticate names; any answer but true, false or { user } refuses with 401 [claim:tsdoc-chat-authenticate-result] [claim:tsdoc-ws-gate-user] [claim:errors-ws-unauthorized-answers]', async () => {
    const throwing = {
      get user(): string {
        throw new Error('session store down');
      },
    };
    const answers: unknown[] = [{ user: 'ada' }, { user: '' }, 'yes', undefined, null, throwing];
    const verdicts = [];
    for (const answer of answers) {
      const check = gate({ authenticate: () => answer as never });
      verdicts.push(await check(upgrade({ host: 'localhost' }), 'r-2', 0));
    }
    expect(verdicts[0]).toEqual({ admitted: { user: 'ada' } });
    for (const verdict of verdicts.slice(1)) {
      expect(verdict).toMatchObject({ refused: { status: 401, code: 'WEFT_WS_UNAUTHORIZED' } });
    }
  });

  it('refuses a connection with no user (no hook, or true) unless trustClientUser is on [claim:wsreadme-trust-option] [claim:wsdoc-no-user] [claim:wsdoc-auth-no-user] [claim:wsreadme-order] [claim:wsreadme-trust-client] [claim:tsdoc-chat-authenticate-result] [claim:tsdoc-ws-options-no-user] [claim:tsdoc-ws-gate-order] [claim:wp-websocket]', async () => {
    const host = upgrade({ host: 'localhost' });
    for (const options of [{}, { authenticate: () => true }]) {
      expect(await gate(options)(host, 'r-3', 0)).toMatchObject({
        refused: { status: 401, code: 'WEFT_WS_UNAUTHORIZED' },
      });
      expect(await gate({ ...options, trustClientUser: true })(host, 'r-3', 0)).toEqual({
        admitted: {},
      });
    }
  });
});
