/**
 * Which chunks the site's build marks for eager compilation
 * (src/plugins/weft-in-browser/compile-hints.ts): only chunks loaded on demand that hold what a
 * Run panel's press loads, never a page's first load nor the chunk of the panel's shell.
 */
import { describe, expect, it } from 'vitest';
import { wantsCompileHint } from '../../src/plugins/weft-in-browser/compile-hints';

const site = '/site';
const core = `${site}/packages/core/src/runtime/runtime.ts`;
const zod = `${site}/node_modules/zod/v4/core/schemas.js`;
const liquid = `${site}/node_modules/liquidjs/dist/liquid.browser.mjs`;
const panel = `${site}/src/components/RunPanel/Panel.tsx`;
const run = `${site}/src/components/RunPanel/examples/getting-started/run.ts`;
const shell = `${site}/src/components/RunPanel/index.tsx`;
const registry = `${site}/src/components/RunPanel/registry.ts`;
const react = `${site}/node_modules/react/cjs/react.production.js`;
const page = `${site}/docs/getting-started.mdx`;

describe('wantsCompileHint', () => {
  it('marks an on-demand chunk holding the core, zod, liquid or the panel and its runs', () => {
    expect(wantsCompileHint(false, [core])).toBe(true);
    expect(wantsCompileHint(false, [zod, react])).toBe(true);
    expect(wantsCompileHint(false, [liquid])).toBe(true);
    expect(wantsCompileHint(false, [panel, run])).toBe(true);
  });

  it('leaves a chunk that can be part of a first load alone, whatever it holds', () => {
    expect(wantsCompileHint(true, [core, zod, panel])).toBe(false);
  });

  it("leaves the chunk holding the panel's shell alone: it is part of its page", () => {
    expect(wantsCompileHint(false, [shell, page])).toBe(false);
    expect(wantsCompileHint(false, [shell, core])).toBe(false);
    expect(wantsCompileHint(false, [registry, page])).toBe(false);
  });

  it('leaves on-demand chunks of other code alone', () => {
    expect(wantsCompileHint(false, [page, react])).toBe(false);
    expect(wantsCompileHint(false, [])).toBe(false);
  });

  it('reads Windows paths too', () => {
    expect(wantsCompileHint(false, ['C:\\site\\packages\\core\\src\\index.ts'])).toBe(true);
    expect(wantsCompileHint(false, ['C:\\site\\src\\components\\RunPanel\\index.tsx'])).toBe(false);
  });
});
