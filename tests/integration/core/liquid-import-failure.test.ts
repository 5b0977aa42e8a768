/**
 * liquidjs that cannot be imported (an install that lacks it, a page whose chunk did not
 * download) while a plugin has a Liquid template: `Runtime.init` still throws its one
 * `WEFT_INVALID_CONFIG`, listing the failed import beside the configuration's other problems,
 * and the next `Runtime.init` tries the import again. The import is the engine module's own
 * importer, replaced here, so this file runs with modules of its own (@vitest-own-modules).
 */
import { WeftError } from '@weft/core';
import { afterEach, describe, expect, it } from 'vitest';
import { setLiquidImporter } from '../../../packages/core/src/prompts/liquid-engine.js';
import { echoPlugin, errorOf, makeRuntime, TestPlugin } from './fixtures.js';

afterEach(() => setLiquidImporter());

describe('Runtime.init when liquidjs cannot be imported', () => {
  it('lists the failed import, naming the plugins with Liquid templates, beside the other problems [claim:core-readme-init-checks] [claim:errors-invalid-config-liquid]', async () => {
    let attempts = 0;
    setLiquidImporter(() => {
      attempts += 1;
      return Promise.reject(new Error('the liquidjs chunk did not download'));
    });
    const plugins = [
      echoPlugin({ templates: { hello: 'Hello {{ name }}!' } }),
      new TestPlugin('plain', { templates: { bye: () => 'Goodbye.' } }),
      new TestPlugin('poet', { templates: { verse: 'Roses {{ colour }}' } }),
    ];
    const error = await errorOf(makeRuntime({ plugins, options: { maxSteps: 0 } }));
    expect(WeftError.is(error, 'WEFT_INVALID_CONFIG')).toBe(true);
    expect(error.message.split('\n- ').slice(1)).toEqual([
      expect.stringMatching(/^options\.maxSteps: /),
      'plugin "echo", "poet": Liquid templates need liquidjs, a dependency of @weft/core, which could not be loaded (the liquidjs chunk did not download); reinstall the project\'s dependencies (in a page, check that its scripts download) and call Runtime.init again',
    ]);
    expect(attempts).toBe(1);

    // Once the module can be imported, the next init loads it and builds the runtime.
    setLiquidImporter();
    const { runtime } = await makeRuntime({ plugins });
    expect(await runtime.prompts.render('poet/verse', { colour: 'red' })).toBe('Roses red');
  });
});
