/**
 * liquidjs is loaded only for a liquid template: a runtime whose plugins' templates are all
 * functions of their variables never imports it, which spares a page its download and
 * evaluation. The mock below only records when the module is first imported and hands on the
 * real one; nothing else in this file imports liquidjs.
 */
import { defineTemplate, WeftError } from '@weft/core';
import { describe, expect, it, vi } from 'vitest';
import { echoPlugin, errorOf, startedRuntime, makeRuntime } from './fixtures.js';

const liquid = vi.hoisted(() => ({ imports: 0 }));

vi.mock('liquidjs', async (importOriginal) => {
  liquid.imports += 1;
  return importOriginal();
});

describe('loading liquidjs', () => {
  it('happens for the first liquid template, never for function templates [claim:plugin-function-templates] [claim:liq-engine-on-first-need] [claim:liq-lazy-engine] [claim:tsdoc-plugin-templates-lazy-liquid] [claim:tsdoc-prompts-liquid-on-demand]', async () => {
    const greeting = defineTemplate<{ name: string }>(['name'], ({ name }) => `Hello ${name}!`);
    const { runtime } = await startedRuntime({
      plugins: [echoPlugin({ templates: { hello: greeting, bye: () => 'Goodbye.' } })],
    });
    expect(await runtime.prompts.render('echo/hello', { name: 'Ada' })).toBe('Hello Ada!');
    expect(await runtime.prompts.render('echo/bye')).toBe('Goodbye.');
    const missing = await errorOf(runtime.prompts.render('echo/hello', {}));
    expect(missing.code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
    expect(missing.message).toContain('undefined variable: name');
    expect(liquid.imports).toBe(0);

    // A liquid template registered on runtime.prompts later is parsed on its first render.
    runtime.prompts.register('echo', 'verse', 'Roses {% for %}');
    expect(liquid.imports).toBe(0);
    const late = await errorOf(runtime.prompts.render('echo/verse'));
    expect(late.code).toBe('WEFT_TEMPLATE_INVALID');
    expect(late.message).toContain('template "echo/verse" does not parse');
    expect(liquid.imports).toBe(1);

    // The first liquid template loads it before it is registered, so a bad one is still named.
    const broken = await errorOf(
      makeRuntime({ plugins: [echoPlugin({ templates: { verse: 'Roses {% for %}' } })] }),
    );
    expect(broken.code).toBe('WEFT_INVALID_CONFIG');
    expect(broken.message).toContain('template "echo/verse" does not parse');
    expect(liquid.imports).toBe(1);

    const { runtime: withLiquid } = await makeRuntime({
      plugins: [echoPlugin({ templates: { hello: 'Hello {{ name }}!' } })],
    });
    expect(liquid.imports).toBe(1);
    expect(await withLiquid.prompts.render('echo/hello', { name: 'Ada' })).toBe('Hello Ada!');
  });

  it('still lists a liquid template that does not parse among the problems of Runtime.init [claim:liq-engine-loaded-first]', async () => {
    const error = await errorOf(
      makeRuntime({ plugins: [echoPlugin({ templates: { verse: 'Roses {% for %}' } })] }),
    );
    expect(WeftError.is(error)).toBe(true);
    expect(error.code).toBe('WEFT_INVALID_CONFIG');
    expect(error.message).toContain('template "echo/verse" does not parse');
  });
});
