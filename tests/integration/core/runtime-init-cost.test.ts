/**
 * What `Runtime.init` does not do, because a first run in a fresh process or page would pay
 * for it (the Run panel of Getting started builds a runtime per run; bench/run-panel.ts
 * times it): it compiles no zod parser for its options, loads no date data and parses none of
 * the core's templates. Each costs milliseconds to tens of milliseconds cold.
 */
import { Liquid } from 'liquidjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { echoPlugin, makeRuntime } from './fixtures.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Runtime.init', () => {
  it('compiles no parser code for the options, however many are given', async () => {
    // zod compiles an object schema's fast parser with `new Function` on its first parse.
    const compile = vi.spyOn(globalThis, 'Function');
    await makeRuntime({
      plugins: [echoPlugin()],
      options: { maxSteps: 3, analytics: { trackers: [] }, bulkhead: { limits: {} } },
    });
    expect(compile).not.toHaveBeenCalled();
  });

  it('loads no date data and parses none of the core templates', async () => {
    const dateTimeFormat = vi.spyOn(Intl, 'DateTimeFormat');
    const parse = vi.spyOn(Liquid.prototype, 'parse');
    const { runtime } = await makeRuntime({ plugins: [echoPlugin()] });
    expect(runtime.prompts.has('core/pipeline-generation')).toBe(true);
    expect(dateTimeFormat).not.toHaveBeenCalled();
    expect(parse.mock.calls.map(([, file]) => file)).toEqual([]);
  });
});
