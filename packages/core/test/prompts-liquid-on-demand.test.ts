/**
 * A registry used on its own, before anything has loaded liquidjs: a liquid template registered
 * then is parsed on its first render, since the module loads asynchronously. Nothing else in this
 * file loads liquidjs, and it runs with modules of its own (@vitest-own-modules).
 */
import { PromptRegistry } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { errorOf } from './fixtures.js';

describe('PromptRegistry before liquidjs is loaded', () => {
  it('parses a liquid template on its first render, with the same errors [claim:liq-engine-on-first-need] [claim:tsdoc-prompts-register-deferred] [claim:tsdoc-prompts-render-deferred-invalid] [claim:liq-no-files]', async () => {
    const prompts = new PromptRegistry();
    // No throw here: the template cannot be parsed before liquidjs is loaded.
    prompts.register('poet', 'verse', 'Roses {% for %}');
    prompts.register('greeter', 'hello', 'Hello {{ name }}!');
    prompts.register('poet', 'anthology', '{% include "package.json" %}');
    expect(() => prompts.register('greeter', 'hello', () => 'again')).toThrow(
      'template "greeter/hello" is already registered',
    );

    const invalid = await errorOf(prompts.render('poet/verse'));
    expect(invalid.code).toBe('WEFT_TEMPLATE_INVALID');
    expect(invalid.message).toContain('template "poet/verse" does not parse');
    const missing = await errorOf(prompts.render('greeter/hello'));
    expect(missing.code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
    expect(missing.message).toContain('undefined variable: name');
    expect(await prompts.render('greeter/hello', { name: 'Ada' })).toBe('Hello Ada!');

    // A tag that would read a file is refused the same way, on the first render.
    const files = await errorOf(prompts.render('poet/anthology'));
    expect(files.code).toBe('WEFT_TEMPLATE_INVALID');
    expect(files.message).toContain(
      'template "poet/anthology" does not parse: the {% include %} tag is not supported: templates cannot read files',
    );

    // Once liquidjs is loaded, a template is parsed when registered.
    expect(() => prompts.register('poet', 'ode', 'O {% if %}')).toThrow(
      'PromptRegistry: template "poet/ode" does not parse',
    );
  });
});
