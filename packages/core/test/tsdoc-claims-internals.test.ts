/**
 * Claims the TSDoc comments of the core's internal helpers make (hover text for whoever works on
 * the core), which no other test checked. Each describe names the symbol whose comment it
 * guards, so a change to that comment leads here.
 */
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WeftError } from '@weft/core';
import { SignalFanOut } from '../src/scheduler/signal-fan-out.js';
import { ServerStandIn } from '../src/server/server-stand-in.js';
import * as browserPlatform from '../src/platform/browser.js';
import { hostChecker } from '../src/server/allowed-hosts.js';
import { absoluteFormAuthority } from '../src/server/request-target.js';
import { nestsDeeperThan } from '../src/server/json-depth.js';
import { settleWithin, TIMED_OUT } from '../src/util/deadline.js';
import { randomId } from '../src/util/random-id.js';
import { createTaskSignal } from '../src/util/task-signal.js';
import { errorOf } from './fixtures.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('TSDoc of settleWithin', () => {
  it("returns the promise's value when it settles in time, and passes a rejection on [claim:tsdoc-settle-within-rejection]", async () => {
    expect(await settleWithin(Promise.resolve('done'), 1_000)).toBe('done');
    const failure = new Error('write failed');
    await expect(settleWithin(Promise.reject(failure), 1_000)).rejects.toBe(failure);
  });

  it('resolves with TIMED_OUT after ms when the promise never settles [claim:tsdoc-settle-within-timeout] [claim:tsdoc-timed-out]', async () => {
    vi.useFakeTimers();
    const waiting = settleWithin(new Promise<never>(() => undefined), 250);
    let result: unknown = 'pending';
    void waiting.then((value) => (result = value));
    await vi.advanceTimersByTimeAsync(249);
    expect(result).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toBe(TIMED_OUT);
  });
});

describe('TSDoc of randomId', () => {
  it('is a version 4 UUID from crypto.randomUUID [claim:tsdoc-random-id-v4]', () => {
    const ids = new Set(Array.from({ length: 50 }, () => randomId()));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(UUID_V4);
  });

  it('builds a version 4 UUID from getRandomValues where randomUUID is missing (plain HTTP pages) [claim:tsdoc-random-id-fallback]', () => {
    const webCrypto = globalThis.crypto;
    vi.stubGlobal('crypto', {
      getRandomValues: <T extends ArrayBufferView>(array: T): T =>
        webCrypto.getRandomValues(array as never) as T,
    });
    expect(typeof globalThis.crypto.randomUUID).toBe('undefined');
    for (let count = 0; count < 50; count += 1) expect(randomId()).toMatch(UUID_V4);
  });
});

describe('TSDoc of createTaskSignal', () => {
  it("aborts with the parent's reason, or alone; release detaches it from the parent [claim:tsdoc-task-signal-signal] [claim:tsdoc-task-signal-abort] [claim:tsdoc-task-signal-release]", () => {
    const parent = new AbortController();
    const first = createTaskSignal(parent.signal);
    const second = createTaskSignal(parent.signal);
    const released = createTaskSignal(parent.signal);

    first.abort('timed out');
    expect(first.signal.reason).toBe('timed out');
    expect(second.signal.aborted).toBe(false);
    expect(parent.signal.aborted).toBe(false);

    released.release();
    parent.abort('stopping');
    expect(second.signal.reason).toBe('stopping');
    expect(released.signal.aborted).toBe(false);
  });

  it('starts aborted under a parent that already aborted [claim:tsdoc-task-signal-signal]', () => {
    const parent = new AbortController();
    parent.abort('stopped');
    expect(createTaskSignal(parent.signal).signal.reason).toBe('stopped');
  });
});

describe('TSDoc of hostChecker', () => {
  it('refuses a missing or empty Host header, and allows a bound host unless it is a wildcard [claim:tsdoc-host-checker-bound] [claim:errors-host-not-allowed-section] [claim:prod-allowed-hosts-403]', () => {
    const check = hostChecker(['agent.example.com'], 'box.internal');
    expect(check(undefined)).toBe(false);
    expect(check('')).toBe(false);
    expect(check('box.internal:3000')).toBe(true);
    expect(check('agent.example.com')).toBe(true);
    expect(hostChecker([], '0.0.0.0')('other.example')).toBe(false);
    expect(hostChecker([], '::')('other.example')).toBe(false);
  });
});

describe('TSDoc of absoluteFormAuthority', () => {
  it('gives the authority of a target in absolute form as sent, user information included, and nothing for origin or asterisk form [claim:tsdoc-absolute-form-authority]', () => {
    expect(absoluteFormAuthority('http://agent.example:3000/api?x=1')).toBe('agent.example:3000');
    expect(absoluteFormAuthority('HTTP://Agent.Example')).toBe('Agent.Example');
    expect(absoluteFormAuthority('ws://user@[::1]:3001/ws')).toBe('user@[::1]:3001');
    expect(absoluteFormAuthority('http:///api')).toBe('');
    expect(absoluteFormAuthority('/api')).toBeUndefined();
    expect(absoluteFormAuthority('//agent.example/api')).toBeUndefined();
    expect(absoluteFormAuthority('*')).toBeUndefined();
    expect(absoluteFormAuthority(undefined)).toBeUndefined();
  });
});

describe('TSDoc of nestsDeeperThan', () => {
  const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

  it('skips brackets inside strings, escaped quotes included, and stops past the limit [claim:tsdoc-nests-deeper-strings]', () => {
    expect(nestsDeeperThan(bytes('{"a":"\\"[[[[{{{{"}'), 1)).toBe(false);
    expect(nestsDeeperThan(bytes('{"a":{"b":1}}'), 1)).toBe(true);
    expect(nestsDeeperThan(bytes('{"a":{"b":1}}'), 2)).toBe(false);
    // Multi-byte UTF-8 text never counts as a bracket.
    expect(nestsDeeperThan(bytes('["€「」【】"]'), 1)).toBe(false);
  });
});

describe('TSDoc of the browser platform', () => {
  it('the server stand-in: port and url undefined, stop resolves, start and mount throw WEFT_UNSUPPORTED_PLATFORM [claim:errors-unsupported-platform-not-at-start] [claim:tsdoc-browser-server-throws] [claim:tsdoc-browser-server-port] [claim:tsdoc-browser-server-stop] [claim:tsdoc-browser-server-mount]', async () => {
    const server = new ServerStandIn('browser');
    expect(server.port).toBeUndefined();
    expect(server.url).toBeUndefined();
    await expect(server.stop()).resolves.toBeUndefined();
    expect((await errorOf(server.start())).code).toBe('WEFT_UNSUPPORTED_PLATFORM');
    const mounted = await errorOf(() => server.mount('chat', { method: 'POST', path: '/chat' }));
    expect(mounted.code).toBe('WEFT_UNSUPPORTED_PLATFORM');
    expect(mounted.message).toContain('plugin "chat" has the route trigger POST /chat');
    await expect(browserPlatform.loadHttpServer()).rejects.toSatisfy((error) =>
      WeftError.is(error, 'WEFT_UNSUPPORTED_PLATFORM'),
    );
  });

  it('has no environment or signals, and readTemplateFiles rejects naming the directory [claim:tsdoc-browser-read-templates] [claim:tsdoc-browser-environment] [claim:tsdoc-browser-signals]', async () => {
    expect(browserPlatform.hostEnvironment()).toEqual({});
    expect(browserPlatform.SUPPORTS_SIGNALS).toBe(false);
    expect(browserPlatform.SUPPORTS_SERVER).toBe(false);
    const error = await errorOf(browserPlatform.readTemplateFiles('/prompts'));
    expect(error.code).toBe('WEFT_UNSUPPORTED_PLATFORM');
    expect(error.message).toContain('cannot read /prompts');
  });

  it('gives a runtime without a logger one at info, whatever WEFT_LOG_LEVEL says [claim:install-browser-log-level] [claim:cfg-browser] [claim:obs-default-logger-browser]', () => {
    vi.stubEnv('WEFT_LOG_LEVEL', 'debug');
    try {
      expect(browserPlatform.createDefaultLogger().level).toBe('info');
      expect(browserPlatform.hostEnvironment()).toEqual({});
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('TSDoc of SignalFanOut', () => {
  it('holds one listener per source however many are linked, aborts them with its reason, and unlinks [claim:tsdoc-fan-out-one-listener] [claim:tsdoc-fan-out-link]', () => {
    const fanOut = new SignalFanOut();
    const scheduler = new AbortController();
    const coordinator = new AbortController();
    const links = Array.from({ length: 20 }, () =>
      fanOut.link([scheduler.signal, coordinator.signal]),
    );
    expect(getEventListeners(scheduler.signal, 'abort')).toHaveLength(1);
    expect(getEventListeners(coordinator.signal, 'abort')).toHaveLength(1);

    const unlinked = links.pop()!;
    unlinked.unlink();
    coordinator.abort('space lost');
    for (const { signal } of links) expect(signal.reason).toBe('space lost');
    expect(unlinked.signal.aborted).toBe(false);

    for (const { unlink } of links) unlink();
    expect(getEventListeners(scheduler.signal, 'abort')).toHaveLength(0);
  });

  it('links to a source that already aborted as aborted, with its reason [claim:tsdoc-fan-out-link]', () => {
    const source = new AbortController();
    source.abort('stopped');
    expect(new SignalFanOut().link([source.signal]).signal.reason).toBe('stopped');
  });
});
