/**
 * Guards the configuration reference (docs/reference/configuration.md, the opening paragraph,
 * "Rules between options" and "Environment variables"): `Runtime.init` reports every problem in
 * its one `WEFT_INVALID_CONFIG`, the rules between options and the variables the core reads
 * included, instead of a component's own error surfacing alone later.
 */
import { Runtime, WeftError, type RuntimeOptions } from '@weft/core';
import { ServerManager } from '@weft/core/node';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { echoPlugin, errorOf, silentLogger } from './fixtures.js';

function config(options: RuntimeOptions) {
  return {
    models: [new ScriptedModelProvider()],
    memory: new InMemoryMemoryProvider(),
    plugins: [echoPlugin()],
    options,
  };
}

/** The problems listed by the WEFT_INVALID_CONFIG that `Runtime.init` rejects with. */
async function problemsOf(options: RuntimeOptions): Promise<string[]> {
  const error = await errorOf(Runtime.init(config(options)));
  expect(WeftError.is(error, 'WEFT_INVALID_CONFIG')).toBe(true);
  return error.message.split('\n- ').slice(1);
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('Runtime.init reports every configuration problem in one error', () => {
  it('reports server.requestTimeout below headersTimeout, instead of the server failing alone', async () => {
    expect(await problemsOf({ logger: silentLogger, server: { requestTimeout: 5000 } })).toEqual([
      'options.server: "headersTimeout" (10000 ms) must not exceed "requestTimeout" (5000 ms); raise requestTimeout or lower headersTimeout.',
    ]);
    // The rule holds with both options given too, and is met by equal values.
    expect(
      await problemsOf({
        logger: silentLogger,
        server: { headersTimeout: 20_000, requestTimeout: 15_000 },
      }),
    ).toHaveLength(1);
    const runtime = await Runtime.init(
      config({ logger: silentLogger, server: { headersTimeout: 5000, requestTimeout: 5000 } }),
    );
    expect(runtime.status).toBe('ready');
  });

  it('skips a rule whose options are themselves invalid, reporting the option once', async () => {
    const problems = await problemsOf({ logger: silentLogger, server: { requestTimeout: -1 } });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^options\.server\.requestTimeout: /);
  });

  it('reports a bad WEFT_LOG_LEVEL as a configuration problem, not the logger library’s error [claim:obs-log-level-invalid] [claim:tsdoc-node-bad-level] [claim:cfg-log-level-values]', async () => {
    vi.stubEnv('WEFT_LOG_LEVEL', 'verbose');
    expect(await problemsOf({})).toEqual([
      'WEFT_LOG_LEVEL: "verbose" is not a log level; set one of trace, debug, info, warn, error, fatal, silent, or unset it for info',
    ]);
  });

  it('lists option, rule and environment problems together [claim:obs-log-level-invalid]', async () => {
    vi.stubEnv('WEFT_LOG_LEVEL', 'verbose');
    const problems = await problemsOf({
      maxSteps: 0,
      server: { requestTimeout: 5000 },
      retries: 3,
    } as RuntimeOptions);
    expect(problems.map((problem) => problem.split(':')[0])).toEqual([
      'options.maxSteps',
      'options',
      'options.server',
      'WEFT_LOG_LEVEL',
    ]);
  });

  it('reads WEFT_LOG_LEVEL only when no logger is given, and sets the default logger’s level from it [claim:obs-log-level-values] [claim:tsdoc-node-default-logger] [claim:obs-quiet-info-default] [claim:cfg-log-level-values] [claim:obs-log-level-env] [claim:obs-log-level-invalid] [claim:errors-invalid-config-log-level]', async () => {
    vi.stubEnv('WEFT_LOG_LEVEL', 'verbose');
    expect((await Runtime.init(config({ logger: silentLogger }))).status).toBe('ready');
    // A logger of your own keeps its level, whatever the variable says.
    vi.stubEnv('WEFT_LOG_LEVEL', 'debug');
    const own = pino({ level: 'warn' });
    const given = await Runtime.init(config({ logger: own }));
    expect(given.logger).toBe(own);
    expect(given.logger.level).toBe('warn');
    vi.stubEnv('WEFT_LOG_LEVEL', 'Warn');
    expect((await Runtime.init(config({}))).logger.level).toBe('warn');
    vi.stubEnv('WEFT_LOG_LEVEL', '');
    expect((await Runtime.init(config({}))).logger.level).toBe('info');
    // Blanks around it are ignored, as the guide's sample logger reads it too (a `.env` line
    // `WEFT_LOG_LEVEL= error `); blanks alone count as empty.
    vi.stubEnv('WEFT_LOG_LEVEL', ' error ');
    expect((await Runtime.init(config({}))).logger.level).toBe('error');
    vi.stubEnv('WEFT_LOG_LEVEL', '   ');
    expect((await Runtime.init(config({}))).logger.level).toBe('info');
  });

  it('has the server refuse the same rule when created directly', () => {
    expect(() => new ServerManager({ requestTimeout: 5000 })).toThrow(
      'ServerManager: option "headersTimeout" (10000 ms) must not exceed "requestTimeout" (5000 ms)',
    );
  });
});
