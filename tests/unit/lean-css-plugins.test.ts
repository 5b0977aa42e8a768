/**
 * src/plugins/lean-css: the PostCSS plugins Docusaurus names as `[module path, options]` are
 * created once per process and reused for every stylesheet, with the output PostCSS gives when
 * it creates them itself.
 */
import { createRequire } from 'node:module';
import postcss, { type AcceptedPlugin } from 'postcss';
import { describe, expect, it } from 'vitest';
import { createdOnce } from '../../src/plugins/lean-css';

// The preset Docusaurus's style loader names, resolved from where that loader resolves it.
const fromBundler = createRequire(createRequire(import.meta.url).resolve('@docusaurus/bundler'));
const presetEnvPath = fromBundler.resolve('postcss-preset-env');

const STYLESHEET = `
.card { &:hover { color: red; } inset: 0; }
.row { display: flex; gap: 1rem; }
`;

describe('createdOnce', () => {
  it('creates a named plugin once for the same options and passes other entries through [claim:cg-postcss-plugins-once]', () => {
    const own: AcceptedPlugin = { postcssPlugin: 'own' };
    const first = createdOnce([[presetEnvPath, {}], own]);
    const second = createdOnce([[presetEnvPath, {}]]);
    expect(first[1]).toBe(own);
    expect(typeof first[0]).toBe('object');
    expect(second[0]).toBe(first[0]);
    expect(createdOnce([[presetEnvPath, { stage: 4 }]])[0]).not.toBe(first[0]);
  });

  it('gives the output PostCSS gives when it creates the plugin for each stylesheet [claim:cg-postcss-plugins-once]', async () => {
    const creator = fromBundler(presetEnvPath) as AcceptedPlugin;
    const created = createdOnce([[presetEnvPath, {}]])[0] as AcceptedPlugin;
    const fresh = await postcss([creator]).process(STYLESHEET, { from: 'a.css' });
    const reused = await postcss([created]).process(STYLESHEET, { from: 'b.css' });
    const again = await postcss([created]).process(STYLESHEET, { from: 'c.css' });
    expect(reused.css).toBe(fresh.css);
    expect(again.css).toBe(fresh.css);
    // The preset did work: nesting is flattened for the site's browser targets.
    expect(fresh.css).toContain('.card:hover');
  });
});
