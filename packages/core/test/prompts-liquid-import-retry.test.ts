/**
 * A failed import of liquidjs (a page offline, a chunk that did not download) is tried again by
 * the next render, also for a template registered before it: the registry keeps no failed import.
 * The failure comes from the engine module's own importer, replaced here, so nothing else in this
 * file may load liquidjs first: it runs with modules of its own (@vitest-own-modules).
 */
import { PromptRegistry } from '@weft/core';
import { afterEach, describe, expect, it } from 'vitest';
import { loadedLiquid, setLiquidImporter } from '../src/prompts/liquid-engine.js';
import { errorOf } from './fixtures.js';

afterEach(() => setLiquidImporter());

describe('PromptRegistry when liquidjs fails to load', () => {
  it('tries the import again on the next render of a template registered before it [claim:errors-template-render-liquid-import] [claim:tsdoc-prompts-register-deferred]', async () => {
    let attempts = 0;
    setLiquidImporter(() => {
      attempts += 1;
      return Promise.reject(new Error('the liquidjs chunk did not download'));
    });
    const prompts = new PromptRegistry();
    prompts.register('greeter', 'hello', 'Hello {{ name }}!');

    const first = await errorOf(prompts.render('greeter/hello', { name: 'Ada' }));
    expect(first.code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
    expect(first.message).toContain(
      'rendering "greeter/hello" failed: the liquidjs chunk did not download',
    );
    const second = await errorOf(prompts.render('greeter/hello', { name: 'Ada' }));
    expect(second.message).toContain('the liquidjs chunk did not download');
    expect(attempts).toBe(2);
    expect(loadedLiquid()).toBeUndefined();

    // A template registered after a failure waits for the engine as well.
    prompts.register('greeter', 'bye', 'Goodbye {{ name }}.');
    setLiquidImporter();
    expect(await prompts.render('greeter/hello', { name: 'Ada' })).toBe('Hello Ada!');
    expect(await prompts.render('greeter/bye', { name: 'Ada' })).toBe('Goodbye Ada.');
    expect(loadedLiquid()).toBeDefined();
    expect(attempts).toBe(2);
  });
});
