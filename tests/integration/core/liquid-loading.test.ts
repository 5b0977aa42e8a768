/**
 * liquidjs is loaded only for a liquid template: a runtime whose plugins' templates are all
 * functions of their variables never imports it, which spares a page its download and
 * evaluation. The mock below only records when the module is first imported and hands on the
 * real one; nothing else in this file imports liquidjs.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTemplate, WeftError } from '@weft/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
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

/**
 * The engine is made once per set of modules, and the test above, or a file run before this one
 * in the same worker, may have made it already. These tests load the core again, so that liquidjs
 * is not loaded when they begin and only the call under test can load it.
 */
describe('loading liquidjs before registering', () => {
  const directories: string[] = [];
  afterEach(async () => {
    await Promise.all(directories.splice(0).map((path) => rm(path, { recursive: true })));
  });

  /** Fresh copies of the fixtures, the core they use and its liquid engine, liquidjs unloaded. */
  async function freshModules() {
    vi.resetModules();
    const fixtures = await import('./fixtures.js');
    const core = await import('@weft/core');
    const engine = await import('../../../packages/core/src/prompts/liquid-engine.js');
    expect(engine.loadedLiquid()).toBeUndefined();
    return { fixtures, core, engine };
  }

  async function templateDirectory(files: Record<string, string>): Promise<string> {
    const directory = await mkdtemp(join(tmpdir(), 'weft-liquid-loading-'));
    directories.push(directory);
    for (const [name, source] of Object.entries(files)) {
      await writeFile(join(directory, name), source);
    }
    return directory;
  }

  it('happens in Runtime.init, so a plugin template that does not parse fails it [claim:liq-engine-loaded-first]', async () => {
    const { fixtures, engine } = await freshModules();
    const error = await errorOf(
      fixtures.makeRuntime({
        plugins: [fixtures.echoPlugin({ templates: { verse: 'Roses {% for %}' } })],
      }),
    );
    expect(error.code).toBe('WEFT_INVALID_CONFIG');
    expect(error.message).toContain('template "echo/verse" does not parse');
    expect(engine.loadedLiquid()).toBeDefined();
  });

  it('happens in loadDirectory when the directory holds a .liquid file, so one that does not parse rejects it [claim:liq-engine-loaded-first]', async () => {
    const { core, engine } = await freshModules();
    const prompts = new core.PromptRegistry();
    // No .liquid file: nothing to compile, and liquidjs stays unloaded.
    const empty = await templateDirectory({ 'notes.txt': 'Templates of the digest plugin.' });
    expect(await prompts.loadDirectory('digest', empty)).toEqual([]);
    expect(engine.loadedLiquid()).toBeUndefined();

    const broken = await templateDirectory({
      'daily.liquid': 'Digest for {{ reader }}',
      'weekly.liquid': 'Digest {% if %}',
    });
    const error = await errorOf(prompts.loadDirectory('digest', broken));
    expect(error.code).toBe('WEFT_TEMPLATE_INVALID');
    expect(error.message).toContain('template "digest/weekly" does not parse');
    expect(prompts.list()).toEqual([]);
    expect(engine.loadedLiquid()).toBeDefined();
  });
});
