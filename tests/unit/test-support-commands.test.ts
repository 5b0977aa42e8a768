/**
 * The environment the tests give the commands they run (libs/test-support/commands.ts): npm's
 * own settings from the `npm test` around them are left out, and a registry request that hangs
 * is cut well inside the tests' install deadlines.
 */
import { describe, expect, it } from 'vitest';
import { cleanEnv, NPM_FETCH_TIMEOUT_MS } from '@weft-internal/test-support/commands';

describe('cleanEnv', () => {
  it('cuts a hung registry request well within an install deadline, and lets a test change it', () => {
    const env = cleanEnv();
    expect(Number(env.npm_config_fetch_timeout)).toBe(NPM_FETCH_TIMEOUT_MS);
    // The shortest install deadline in the scaffold tests is four minutes: two tries fit in it.
    expect(NPM_FETCH_TIMEOUT_MS * 2).toBeLessThan(4 * 60_000);
    expect(cleanEnv({ npm_config_fetch_timeout: '5' }).npm_config_fetch_timeout).toBe('5');
  });

  it('leaves out the npm settings of the npm test that runs the tests', () => {
    process.env.npm_config_example_setting = 'from npm test';
    try {
      expect(cleanEnv()).not.toHaveProperty('npm_config_example_setting');
    } finally {
      delete process.env.npm_config_example_setting;
    }
  });
});
