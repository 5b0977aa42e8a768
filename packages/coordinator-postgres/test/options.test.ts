import { WeftError } from '@weft/core';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  describeTarget,
  maskedCause,
  maskedMessage,
  passwordForms,
  resolveOptions,
  serverAddress,
} from '../src/options.js';

const connectionString = 'postgres://localhost/weft';

function problemsOf(options: Record<string, number>): string {
  try {
    resolveOptions({ connectionString, ...options });
  } catch (error) {
    expect(WeftError.is(error, 'WEFT_COORDINATOR_INVALID_OPTIONS')).toBe(true);
    return (error as Error).message;
  }
  return '';
}

// Node.js runs a setTimeout longer than 2147483647 ms after 1 ms: such a sweepIntervalMs would
// sweep without pause, a connectTimeoutMs fail every connection at once.
describe('PostgresSpaceCoordinator timer options', () => {
  it.each(['connectTimeoutMs', 'pollIntervalMs', 'sweepIntervalMs', 'reconnectDelayMs'])(
    'refuses %s over 2147483647 ms, naming it [claim:coord-readme-timer-max]',
    (name) => {
      expect(problemsOf({ [name]: 2_147_483_648, reconnectMaxDelayMs: 2_147_483_647 })).toContain(
        `${name} must be at most 2147483647 ms (about 24.8 days), the longest delay a Node.js timer keeps, got 2147483648`,
      );
      expect(problemsOf({ [name]: 2_147_483_647, reconnectMaxDelayMs: 2_147_483_647 })).toBe('');
    },
  );

  it('refuses reconnectMaxDelayMs over 2147483647 ms, naming it [claim:coord-readme-timer-max]', () => {
    expect(problemsOf({ reconnectMaxDelayMs: 2_147_483_648 })).toContain(
      'reconnectMaxDelayMs must be at most 2147483647 ms',
    );
  });

  it("refuses statementTimeoutMs over 2147482647 ms, since the client's deadline is a second longer [claim:coord-readme-timer-max]", () => {
    expect(problemsOf({ statementTimeoutMs: 2_147_482_648 })).toContain(
      'statementTimeoutMs must be at most 2147482647 ms',
    );
    expect(problemsOf({ statementTimeoutMs: 2_147_482_647 })).toBe('');
  });

  it('takes an acquireTimeoutMs over it, a deadline waited for in pollIntervalMs steps [claim:coord-readme-timer-max]', () => {
    expect(resolveOptions({ connectionString, acquireTimeoutMs: 3_000_000_000 })).toMatchObject({
      acquireTimeoutMs: 3_000_000_000,
    });
  });
});

// The release channel is the schema's name and `_released`; PostgreSQL refuses a notification on
// a channel name of 64 bytes or more, which would fail every release.
describe('PostgresSpaceCoordinator schema option', () => {
  it('takes a schema name of 54 characters and refuses one of 55, naming the limit [claim:coord-readme-schema-length]', () => {
    expect(resolveOptions({ connectionString, schema: `s${'x'.repeat(53)}` }).schema).toHaveLength(
      54,
    );
    let message = '';
    try {
      resolveOptions({ connectionString, schema: `s${'x'.repeat(54)}` });
    } catch (error) {
      expect(WeftError.is(error, 'WEFT_COORDINATOR_INVALID_OPTIONS')).toBe(true);
      message = (error as Error).message;
    }
    expect(message).toMatch(/schema must be a lower-case identifier of up to 54 /);
  });

  it('takes letters, digits and _ not led by a digit, and refuses a leading digit, a capital or a hyphen [claim:coord-readme-schema-length]', () => {
    for (const schema of ['_weft', 'weft_2', 'w']) {
      expect(resolveOptions({ connectionString, schema }).schema).toBe(schema);
    }
    for (const schema of ['2weft', 'Weft', 'weft-a', '']) {
      let message = '';
      try {
        resolveOptions({ connectionString, schema });
      } catch (error) {
        expect(WeftError.is(error, 'WEFT_COORDINATOR_INVALID_OPTIONS')).toBe(true);
        message = (error as Error).message;
      }
      expect(message).toContain(`schema must be a lower-case identifier`);
      expect(message).toContain(`got ${JSON.stringify(schema)}`);
    }
  });

  it('refuses a schema starting with pg_, which PostgreSQL will not create, naming the reason [claim:coord-readme-schema-pg-prefix]', () => {
    let message = '';
    try {
      resolveOptions({ connectionString, schema: 'pg_weft', pollIntervalMs: 0 });
    } catch (error) {
      expect(WeftError.is(error, 'WEFT_COORDINATOR_INVALID_OPTIONS')).toBe(true);
      message = (error as Error).message;
    }
    expect(message).toContain(
      `schema must not start with 'pg_', which PostgreSQL keeps for its system schemas, got "pg_weft"`,
    );
    expect(message).toContain('pollIntervalMs must be a positive integer');
    expect(resolveOptions({ connectionString, schema: 'pgweft' }).schema).toBe('pgweft');
    expect(resolveOptions({ connectionString, schema: 'weft_pg_' }).schema).toBe('weft_pg_');
  });
});

describe('PostgresSpaceCoordinator default logger', () => {
  it('writes warnings and errors to stderr as JSON lines, and no info lines [claim:coord-readme-default-logger] [claim:obs-coordinator-logger]', () => {
    const written: string[] = [];
    const spy = vi
      .spyOn(process.stderr, 'write')
      .mockImplementation((chunk: string | Uint8Array) => {
        written.push(String(chunk));
        return true;
      });
    const before = Date.now();
    try {
      const { logger } = resolveOptions({ connectionString });
      logger.info({ instance: '1' }, 'coordinator started');
      logger.warn({ attempt: 1 }, 'reconnecting to PostgreSQL failed; trying again');
      logger.error({ instance: '1' }, 'lost the connection');
    } finally {
      spy.mockRestore();
    }
    // pino's level numbers and time, as the runtime's own lines have them.
    const time = expect.any(Number) as unknown;
    expect(written.map((line) => JSON.parse(line) as unknown)).toEqual([
      { level: 40, time, attempt: 1, msg: 'reconnecting to PostgreSQL failed; trying again' },
      { level: 50, time, instance: '1', msg: 'lost the connection' },
    ]);
    for (const line of written) {
      expect((JSON.parse(line) as { time: number }).time).toBeGreaterThanOrEqual(before);
    }
  });
});

describe('PostgresSpaceCoordinator connection string', () => {
  it('refuses among the bad options a postgres:// string that is no URL, without quoting it, and takes one with a user but no host [claim:coord-readme-invalid-options]', () => {
    for (const bad of ['postgres://weft:s3cret@[db/weft', 'postgres://weft:s3cret@db:99999/weft']) {
      let message = '';
      try {
        resolveOptions({ connectionString: bad, poolSize: 0 });
      } catch (error) {
        expect(WeftError.is(error, 'WEFT_COORDINATOR_INVALID_OPTIONS')).toBe(true);
        message = (error as Error).message;
      }
      expect(message).toContain('connectionString must be a postgres:// URL, and this one cannot');
      expect(message).toContain('poolSize must be a positive integer, got 0');
      expect(message).not.toContain('s3cret');
    }
    // pg reads a user without a host, as for a Unix socket given by the host parameter.
    const socket = 'postgres://weft:s3cret@/weft?host=/var/run/postgresql';
    expect(resolveOptions({ connectionString: socket }).connectionString).toBe(socket);
  });
});

describe('PostgresSpaceCoordinator connection string start and end', () => {
  /** The message of the options error, or '' when the options are taken. */
  function connectionProblems(text: string): string {
    try {
      resolveOptions({ connectionString: text, poolSize: 0 });
    } catch (error) {
      expect(WeftError.is(error, 'WEFT_COORDINATOR_INVALID_OPTIONS')).toBe(true);
      return (error as Error).message;
    }
    return '';
  }

  it('refuses a string pg would read as another server or database: postgres: without //, or white space around the URL, without quoting it [claim:coord-readme-url-start]', () => {
    // pg reads "postgres:weft" as database "eft", " postgres://..." as a host named "base", and
    // "postgres://.../agents " as database "agents " with its space.
    for (const text of [
      'postgres:weft',
      'postgresql:/agents',
      'mysql://weft:hunter2@db.internal:6543/agents',
      ' postgres://weft:hunter2@db.internal:6543/agents',
      '\tpostgres://weft:hunter2@db.internal:6543/agents',
    ]) {
      const message = connectionProblems(text);
      expect(message, text).toContain(
        'connectionString must start with postgres:// or postgresql://, with nothing before it',
      );
      expect(message, text).toContain('poolSize must be a positive integer, got 0');
      expect(message, text).not.toContain('hunter2');
    }
    for (const text of [
      'postgres://weft:hunter2@db.internal:6543/agents ',
      'postgres://weft:hunter2@db.internal:6543/agents\n',
    ]) {
      const message = connectionProblems(text);
      expect(message, text).toContain('connectionString must not end with white space');
      expect(message, text).not.toContain('hunter2');
    }
    // Either scheme, in any case, is taken.
    for (const text of [
      'postgresql://weft@db.internal/agents',
      'POSTGRES://weft@db.internal/agents',
    ]) {
      expect(resolveOptions({ connectionString: text }).connectionString).toBe(text);
    }
  });
});

describe('PostgresSpaceCoordinator option names and logger', () => {
  it('lists a misspelt option and a logger without info, warn and error among the bad options [claim:coord-readme-invalid-options]', () => {
    let message = '';
    try {
      resolveOptions({
        connectionString,
        poolSize: 0,
        // A misspelling of sweepIntervalMs, which would otherwise be dropped without a word.
        sweepInterval: 100,
        logger: { info: () => undefined },
      } as never);
    } catch (error) {
      expect(WeftError.is(error, 'WEFT_COORDINATOR_INVALID_OPTIONS')).toBe(true);
      message = (error as Error).message;
    }
    expect(message).toContain('poolSize must be a positive integer, got 0');
    expect(message).toContain('"sweepInterval" is not an option');
    expect(message).toContain('logger must be an object with info, warn and error functions');
    // A pino-like logger and the known names pass.
    const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    expect(resolveOptions({ connectionString, sweepIntervalMs: 100, logger }).logger).toBe(logger);
  });
});

describe('PostgresSpaceCoordinator server address in messages', () => {
  it('names the server as pg finds it, through the core’s reading of the string, the PG variables and pg’s defaults', () => {
    const env = { PGHOST: 'env-host', PGPORT: '7777', PGDATABASE: 'env-db', PGUSER: 'env-user' };
    expect(serverAddress('postgres://ada:pw@/?host=%2Ftmp%2Fsock&port=6000', env)).toEqual({
      host: '/tmp/sock',
      port: 6000,
      database: 'env-db',
    });
    expect(serverAddress('postgres:///', {})).toMatchObject({ host: 'localhost', port: 5432 });
  });

  it('reads the environment each time it describes the server, never showing the password', () => {
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    vi.stubEnv('PGPORT', '6432');
    vi.stubEnv('PGDATABASE', 'agents');
    expect(describeTarget('postgres://weft:s3cret@db.internal')).toBe('db.internal:6432/agents');
    vi.stubEnv('PGPORT', '6433');
    expect(describeTarget('postgres://weft:s3cret@[::1]/weft')).toBe('[::1]:6433/weft');
    expect(describeTarget('postgres://weft:s3cret@db.internal:5433/weft')).toBe(
      'db.internal:5433/weft',
    );
    expect(describeTarget('postgres://weft:s3cret@[db/weft')).toBe(
      '(unparsable connection string)',
    );
  });
});

describe('the password in driver messages', () => {
  it('masks every form of the password pg sends: as written, percent-decoded, as a parameter, or PGPASSWORD when the string has none [claim:cfg-pgpassword-masked] [claim:errors-coordinator-connect-no-password]', () => {
    const refused = new Error('password authentication failed for user "p@ss w"');
    expect(maskedMessage(refused, 'postgres://x:p%40ss%20w@db/weft')).toBe(
      'password authentication failed for user "***"',
    );
    expect(passwordForms('postgres://x:p%40ss%20w@db/weft', {})).toEqual(['p%40ss%20w', 'p@ss w']);
    expect(passwordForms('postgres://x@db/weft?password=agent', {})).toEqual(['agent']);
    expect(passwordForms('postgres://x@db/weft', { PGPASSWORD: 'from-env' })).toEqual(['from-env']);
    // pg sends the string's own password then, not PGPASSWORD.
    expect(passwordForms('postgres://x:own@db/weft', { PGPASSWORD: 'from-env' })).toEqual(['own']);
    expect(passwordForms('postgres://x@db/weft', {})).toEqual([]);
    const cause = Object.assign(new Error('login of "own" refused'), { code: '28P01' });
    const masked = maskedCause(cause, 'postgres://x:own@db/weft') as Error & { code: string };
    expect(masked.message).toBe('login of "***" refused');
    expect(masked.code).toBe('28P01');
    const clean = new Error('connection refused');
    expect(maskedCause(clean, 'postgres://x:own@db/weft')).toBe(clean);
  });
});
