/**
 * What `Runtime.init` refuses in a browser, by the option's value: the configuration check run
 * with the browser platform module in place of the Node one, as the `browser` condition of
 * `#platform` picks it for a page.
 */
import { describe, expect, it, vi } from 'vitest';
import { checkConfigShape, type RuntimeConfig } from '../src/runtime/config.js';

vi.mock('../src/platform/node.js', () => import('../src/platform/browser.js'));

/** The problems a configuration with these options has that name `option`. */
function problemsNaming(option: string, options: RuntimeConfig['options']): string[] {
  const { problems } = checkConfigShape({
    models: [],
    memory: undefined as never,
    plugins: [],
    options,
  });
  return problems.filter((problem) => problem.startsWith(`options.${option}:`));
}

describe('options only Node.js has, in a browser', () => {
  it('refuses handleSignals: true and accepts it left off or false [claim:install-browser-signals] [claim:cfg-browser]', () => {
    expect(problemsNaming('handleSignals', { handleSignals: true })).toEqual([
      expect.stringContaining('process signals exist only in Node.js'),
    ]);
    expect(problemsNaming('handleSignals', { handleSignals: false })).toEqual([]);
    expect(problemsNaming('handleSignals', {})).toEqual([]);
  });

  it('refuses any options.server, an empty one included [claim:install-browser-refuses-options] [claim:cfg-browser]', () => {
    for (const server of [{ port: 3000 }, {}]) {
      expect(problemsNaming('server', { server })).toEqual([
        expect.stringContaining('the HTTP server runs only in Node.js'),
      ]);
    }
    expect(problemsNaming('server', {})).toEqual([]);
  });
});
