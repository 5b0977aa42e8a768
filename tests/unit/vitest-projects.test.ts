/**
 * vitest.config.ts: test files share their worker's modules, except those that replace modules,
 * globals or the environment, or say they need modules of their own, which run in threads.
 */
import { describe, expect, it } from 'vitest';
import config, { NEEDS_OWN_MODULES } from '../../vitest.config';

const projects = (config.test?.projects ?? []) as {
  test: { name: string; include: string[]; exclude?: string[]; pool?: string };
}[];
const shared = projects.find(({ test }) => test.name === 'unit');
const own = projects.find(({ test }) => test.name === 'own modules');

describe('the unit tests’ two projects [claim:cg-vitest-own-modules]', () => {
  it('share modules in forks, and give the others threads of their own', () => {
    expect(config.test?.poolOptions?.forks?.isolate).toBe(false);
    expect(shared?.test.pool).toBeUndefined();
    expect(own?.test.pool).toBe('threads');
    expect(config.test?.poolOptions?.threads?.isolate).not.toBe(false);
    // Every file of the second project is left out of the first.
    expect(shared?.test.exclude).toEqual(own?.test.include);
  });

  it.each([
    ['vi.mock', 'packages/core/test/browser-options.test.ts'],
    ['an assignment to process.env', 'tests/unit/hover-cache.test.ts'],
    ['the @vitest-own-modules marker', 'packages/core/test/prompts-liquid-on-demand.test.ts'],
  ])('finds a file by %s', (_how, file) => {
    expect(own?.test.include).toContain(file);
  });

  // This file carries the marker in its own text (above), so it runs with modules of its own.
  it.each([
    "vi.mock('./module');",
    "vi.doMock('./module', () => ({}));",
    "vi.unmock('./module');",
    "vi.doUnmock('./module');",
    'vi.resetModules();',
    "vi.stubGlobal('fetch', stub);",
    "vi.stubEnv('WEFT_LOG_LEVEL', 'silent');",
    "process.env.WEFT_LOG_LEVEL = 'silent';",
    "process.env['WEFT_LOG_LEVEL'] = 'silent';",
    "process.env.WEFT_LOG_LEVEL ??= 'silent';",
    "process.env.WEFT_LOG_LEVEL ||= 'silent';",
    "process.env.NODE_OPTIONS += ' --trace-warnings';",
    'process.env = { ...saved };',
    'Object.assign(process.env, { WEFT_LOG_LEVEL: "silent" });',
    'delete process.env.WEFT_LOG_LEVEL;',
    "Reflect.deleteProperty(process.env, 'WEFT_LOG_LEVEL');",
    "Reflect.set(process.env, 'WEFT_LOG_LEVEL', 'silent');",
    "Reflect.defineProperty(process.env, 'WEFT_LOG_LEVEL', { value: 'silent' });",
    '// @vitest-own-modules: it counts how often the module loads',
  ])('gives a file with %s modules of its own', (text) => {
    expect(NEEDS_OWN_MODULES.test(text)).toBe(true);
  });

  it.each([
    "if (process.env.WEFT_LOG_LEVEL === 'silent') {}",
    "if (process.env.WEFT_LOG_LEVEL !== 'silent') {}",
    "const level = process.env.WEFT_LOG_LEVEL ?? 'info';",
    'const level = process.env.WEFT_LOG_LEVEL;',
    'vi.fn();',
    'vi.spyOn(console, "log");',
  ])('shares the modules of a file with only %s', (text) => {
    expect(NEEDS_OWN_MODULES.test(text)).toBe(false);
  });

  it('leaves a file that does none of these with the shared modules', () => {
    expect(own?.test.include).not.toContain('tests/unit/claims.test.ts');
    expect(own?.test.include.length).toBeLessThan(60);
  });
});
