/**
 * bench:site's table of where a build spends its time (tooling/build-parts.ts) reads each
 * part from a line the build prints: the generators' timings and Docusaurus's performance log.
 */
import { describe, expect, it } from 'vitest';
import { BUILD_PARTS, buildParts } from '../../tooling/build-parts';

describe('the parts of a build', () => {
  it('reads the generators and Docusaurus’s steps from the build’s output, in seconds, colours and all', () => {
    const output = [
      'PWA assets: 6.3 s',
      'whitepaper: 8.2 s',
      'diagrams: 8.3 s',
      '\u001b[90m[PERF]\u001b[39m Build > en > Load site - \u001b[31m9.63 seconds!\u001b[39m - (Heap 55mb -> 119mb / Total 142mb)',
      '[PERF] Build > en > Load site > Create site files - 183.07 ms - (Heap 116mb -> 119mb)',
      '[PERF] Build > en > Bundling with rspack - 42.91 seconds! - (Heap 130mb -> 325mb)',
      '[PERF] Build > en > SSG - 12.68 seconds! - (Heap 325mb -> 402mb)',
      '[PERF] Build > en > postBuild() - 873.5 ms - (Heap 402mb -> 400mb)',
      'hover types: 72 samples read by TypeScript and 0 found in the cache, in 55.4 s',
      'hover types: 55.4 s',
    ].join('\n');
    expect(Object.fromEntries(buildParts(output))).toEqual({
      'hover types (own process)': 55.4,
      'PWA icons and startup images': 6.3,
      'whitepaper PDF': 8.2,
      diagrams: 8.3,
      'loading: plugins (TypeDoc among them), content, Git history': 9.63,
      'bundling (and waiting for hover types)': 42.91,
      'static rendering': 12.68,
      'postBuild: search index, Markdown copies, social cards, PWA': 0.8735,
    });
    expect(buildParts(output).size).toBe(BUILD_PARTS.length);
  });

  it('leaves out a part the build did not print (a stock site has no generators)', () => {
    const parts = buildParts('[PERF] Build > en > SSG - 512 ms - (Heap 1mb -> 2mb)');
    expect([...parts]).toEqual([['static rendering', 0.512]]);
  });
});
