/**
 * What `Runtime.init` refuses in a browser, by the option’s value, and the variable it does not
 * read: the configuration check and the runtime run with the browser platform module in place of
 * the Node one, as the `browser` condition of `#platform` picks it for a page.
 */
import { DiscardingMemoryProvider } from '@weft-internal/test-support/discarding-memory';
import { describe, expect, it, vi } from 'vitest';
import { checkConfigShape, type RuntimeConfig } from '../src/runtime/config.js';
import { Runtime } from '../src/runtime/runtime.js';
import { TestModelProvider } from './fixtures.js';

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

  it('reads no WEFT_LOG_LEVEL: a runtime without a logger logs at info, and a bad value is no problem [claim:install-browser-log-level]', async () => {
    vi.stubEnv('WEFT_LOG_LEVEL', 'debug');
    try {
      const runtime = await Runtime.init({
        models: [
          new TestModelProvider('model', {
            capabilities: [{ id: 'text-generation', run: () => Promise.resolve({ text: '' }) }],
          }),
        ],
        memory: new DiscardingMemoryProvider(),
        plugins: [],
      });
      expect(runtime.logger.level).toBe('info');
      vi.stubEnv('WEFT_LOG_LEVEL', 'bogus');
      const { problems } = checkConfigShape({
        models: [],
        memory: undefined as never,
        plugins: [],
        options: {},
      });
      expect(problems.filter((problem) => problem.includes('WEFT_LOG_LEVEL'))).toEqual([]);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
