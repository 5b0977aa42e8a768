/**
 * Every WeftError links its code's section on the errors reference (docs/reference/errors.md,
 * "How errors look"), and the log line of a failure carries that link while the client's answer
 * keeps only what it may see.
 */
import { WeftError, type Runtime, type TriggerRoute } from '@weft/core';
import { ServerManager } from '@weft/core/node';
import { afterEach, describe, expect, it } from 'vitest';
import { capturingLogger } from '@weft-internal/test-support/capturing-logger';
import { CORE_ERRORS } from '../src/errors.js';
import { ERRORS_REFERENCE_URL } from '../src/errors/error-registry.js';
import { errorLogFields } from '../src/util/logger.js';

const servers: ServerManager[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

describe('WeftError.docsUrl', () => {
  it('points at the anchor of its code on the errors page, for every core code', () => {
    for (const code of Object.keys(CORE_ERRORS.codes)) {
      expect(new WeftError(code, 'x').docsUrl).toBe(
        `${ERRORS_REFERENCE_URL}#${code.toLowerCase()}`,
      );
    }
    expect(new WeftError('WEFT_QUEUE_FULL', 'x').docsUrl).toBe(
      'https://weft-ai.github.io/docs/reference/errors/#weft_queue_full',
    );
  });

  it('takes a URL of its own for codes documented elsewhere', () => {
    const error = new WeftError('ACME_BROKEN', 'x', {
      docsUrl: 'https://acme.example/errors#broken',
    });
    expect(error.docsUrl).toBe('https://acme.example/errors#broken');
  });
});

describe('errorLogFields', () => {
  it('gives a Weft error’s message, code and docsUrl', () => {
    const error = new WeftError('WEFT_TEMPLATE_NOT_FOUND', 'PromptRegistry: no template "x".');
    expect(errorLogFields(error)).toEqual({
      error: 'PromptRegistry: no template "x". [WEFT_TEMPLATE_NOT_FOUND]',
      code: 'WEFT_TEMPLATE_NOT_FOUND',
      docsUrl: 'https://weft-ai.github.io/docs/reference/errors/#weft_template_not_found',
    });
  });

  it('finds the Weft error a plain error wraps, and gives a plain error its message only', () => {
    const inner = new WeftError('WEFT_QUEUE_FULL', 'full');
    const wrapped = new Error('dispatch failed', { cause: inner });
    expect(errorLogFields(wrapped)).toMatchObject({
      code: 'WEFT_QUEUE_FULL',
      docsUrl: inner.docsUrl,
    });
    expect(errorLogFields(new Error('plain'))).toEqual({ error: 'plain' });
    expect(errorLogFields('text')).toEqual({ error: 'text' });
  });
});

describe('the log line of a failed request', () => {
  it('carries the code and docsUrl, while the answer hides the message [claim:errors-log-lines-code]', async () => {
    const { logger, lines } = capturingLogger('info');
    const server = new ServerManager({ port: 0 }, logger);
    servers.push(server);
    const failing: TriggerRoute = {
      type: 'route',
      id: 'fail',
      method: 'POST',
      path: '/fail',
      handler: () => {
        throw new WeftError('WEFT_PROVIDER_FAILED', 'provider at http://10.0.0.5:8080 said no');
      },
    };
    server.mount('test-plugin', failing, {} as Runtime);
    await server.start();
    const response = await fetch(`${server.url}/fail`, { method: 'POST' });
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(text).not.toContain('10.0.0.5');
    const { error } = JSON.parse(text) as { error: { requestId: string } };
    expect(lines.find((line) => line.requestId === error.requestId)).toMatchObject({
      msg: 'request failed',
      code: 'WEFT_PROVIDER_FAILED',
      docsUrl: 'https://weft-ai.github.io/docs/reference/errors/#weft_provider_failed',
      error: expect.stringContaining('10.0.0.5'),
    });
  });
});
