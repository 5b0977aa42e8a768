/**
 * An error's message goes into a log line cut to a fixed length: an error thrown with a message
 * of megabytes would otherwise write all of it into each line that reports it, and again into
 * the stack, which starts with the message.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { ServerManager } from '@weft/core/node';
import { describe, expect, it } from 'vitest';
import {
  errorLogFields,
  MAX_LOGGED_ERROR_CHARS,
  MAX_LOGGED_STACK_CHARS,
  stackLogField,
} from '../src/util/logger.js';
import { WeftError } from '../src/errors/weft-error.js';

const HUGE = 'm'.repeat(5_000_000);

describe('errorLogFields and stackLogField', () => {
  it('cut an Error message to 2,000 characters, and its stack to 8,000 with its frames kept [claim:obs-error-message-cut]', () => {
    expect(MAX_LOGGED_ERROR_CHARS).toBe(2_000);
    expect(MAX_LOGGED_STACK_CHARS).toBe(8_000);
    const error = new Error(HUGE);
    expect(errorLogFields(error).error).toBe(`${'m'.repeat(1_997)}...`);
    const stack = stackLogField(error) as string;
    expect(stack.length).toBeLessThanOrEqual(8_000);
    expect(stack.startsWith(`Error: ${'m'.repeat(1_997)}...\n`)).toBe(true);
    expect(stack).toMatch(/\n\s+at /);
  });

  it('keep a short message and its stack whole, and the code of a Weft error whose message is cut', () => {
    const short = new Error('short');
    expect(errorLogFields(short).error).toBe('short');
    expect(stackLogField(short)).toBe(short.stack);
    expect(stackLogField('thrown text')).toBeUndefined();
    const weft = new WeftError('WEFT_BAD_REQUEST', HUGE);
    expect(errorLogFields(weft)).toMatchObject({ code: 'WEFT_BAD_REQUEST' });
    expect(errorLogFields(weft).error.length).toBe(2_000);
  });

  it('never keep half of an emoji at the cut [claim:obs-error-message-cut]', () => {
    // The emoji's two code units are the 1,997th and 1,998th: the cut would fall between them.
    const error = new Error(`${'a'.repeat(1_996)}\u{1F600}${HUGE}`);
    expect(errorLogFields(error).error).toBe(`${'a'.repeat(1_996)}...`);
    expect(stackLogField(error)?.startsWith(`Error: ${'a'.repeat(1_996)}...\n`)).toBe(true);
  });
});

describe('ServerManager request failed line', () => {
  it("cuts a route's thrown Error message of megabytes in the error and stack fields [claim:obs-error-message-cut]", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(String(chunk));
        callback();
      },
    });
    const server = new ServerManager({ port: 0 }, pino({ level: 'info' }, sink));
    server.mount(
      'probe',
      {
        method: 'GET',
        path: '/boom',
        handler: () => {
          throw new Error(HUGE);
        },
      },
      undefined,
    );
    await server.start();
    try {
      const response = await fetch(`${server.url as string}/boom`);
      expect(response.status).toBe(500);
    } finally {
      await server.stop();
    }
    const line = lines.find((text) => text.includes('"msg":"request failed"')) as string;
    const logged = JSON.parse(line) as { error: string; stack: string };
    expect(logged.error).toBe(`${'m'.repeat(1_997)}...`);
    expect(logged.stack.length).toBeLessThanOrEqual(8_000);
    expect(line.length).toBeLessThan(12_000);
  });
});

describe('errorLogFields and stackLogField with getters that throw', () => {
  it('describe an error whose message, cause or stack getter throws, without throwing', () => {
    const error = new RangeError('visible');
    for (const key of ['stack', 'message', 'cause']) {
      Object.defineProperty(error, key, {
        get() {
          throw new Error(`no ${key}`);
        },
      });
    }
    expect(errorLogFields(error)).toEqual({ error: 'RangeError whose message could not be read' });
    expect(stackLogField(error)).toBeUndefined();
    // A proxy whose prototype cannot be read is not taken for an Error, nor does it throw.
    const proxy = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw new Error('no prototype');
        },
        get() {
          throw new Error('no field');
        },
      },
    );
    expect(errorLogFields(proxy)).toEqual({ error: 'a thrown value with no text form' });
  });
});
