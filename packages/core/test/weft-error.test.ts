import { describe, expect, it } from 'vitest';
import { WeftError } from '../src/index.js';
import { CORE_ERRORS } from '../src/errors.js';

describe('WeftError', () => {
  it('carries its code, status and cause, and names the code at the end of its first line [claim:errors-weft-error-shape] [claim:errors-message-first-line]', () => {
    const cause = new Error('disk full');
    const error = new WeftError('WEFT_QUEUE_FULL', 'Scheduler: the queue is full; retry later.', {
      status: 503,
      cause,
    });
    expect(error.code).toBe('WEFT_QUEUE_FULL');
    expect(error.status).toBe(503);
    expect(error.cause).toBe(cause);
    expect(error.message).toBe('Scheduler: the queue is full; retry later. [WEFT_QUEUE_FULL]');
    const multiline = new WeftError('WEFT_INVALID_CONFIG', 'Runtime.init: invalid:\n- a\n- b');
    expect(multiline.message).toBe('Runtime.init: invalid: [WEFT_INVALID_CONFIG]\n- a\n- b');
  });

  it('does not expose an error that has no status [claim:tsdoc-weft-error-expose]', () => {
    expect(new WeftError('WEFT_INTERNAL', 'X: no status.').expose).toBe(false);
    expect(new WeftError('WEFT_BAD_REQUEST', 'X: a 4xx.', { status: 400 }).expose).toBe(true);
  });

  it('exposes its message to clients below 500 only, unless told otherwise [claim:tsdoc-weft-error-expose]', () => {
    expect(new WeftError('WEFT_BAD_REQUEST', 'x', { status: 400 }).expose).toBe(true);
    expect(new WeftError('WEFT_INTERNAL', 'x', { status: 500 }).expose).toBe(false);
    expect(new WeftError('WEFT_INTERNAL', 'x').expose).toBe(false);
    expect(new WeftError('WEFT_QUEUE_FULL', 'x', { status: 503, expose: true }).expose).toBe(true);
  });

  it('is recognised by WeftError.is, with or without a code [claim:errors-is-across-copies]', () => {
    const error = new WeftError('WEFT_GET_OBJECT_FAILED', 'getObject: no valid answer.');
    expect(WeftError.is(error)).toBe(true);
    expect(WeftError.is(error, 'WEFT_GET_OBJECT_FAILED')).toBe(true);
    expect(WeftError.is(error, 'WEFT_QUEUE_FULL')).toBe(false);
    expect(WeftError.is(new Error('plain'))).toBe(false);
    expect(WeftError.is({ code: 'WEFT_QUEUE_FULL' })).toBe(false);
    expect(WeftError.is(undefined)).toBe(false);
  });

  it('recognises an error made by another copy of the package, where instanceof cannot [claim:errors-is-across-copies]', () => {
    // Another copy has another class but registers the same global symbol.
    class OtherCopyError extends Error {
      readonly code = 'WEFT_QUEUE_FULL';
    }
    const foreign = new OtherCopyError('from another copy');
    Object.defineProperty(foreign, Symbol.for('weft.error'), { value: true });
    expect(foreign instanceof WeftError).toBe(false);
    expect(WeftError.is(foreign, 'WEFT_QUEUE_FULL')).toBe(true);
  });

  it('names every code WEFT_ and upper case, as the errors reference anchors them', () => {
    for (const code of Object.keys(CORE_ERRORS.codes)) expect(code).toMatch(/^WEFT_[A-Z_]+$/);
  });
});
