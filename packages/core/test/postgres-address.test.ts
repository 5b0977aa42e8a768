import { describe, expect, it } from 'vitest';
import {
  postgresConnectionStringProblem,
  postgresServerAddress,
  postgresUrl,
} from '../src/internal.js';

const pgDefaults = { host: 'localhost', port: 5432, user: 'os-user' };

describe('postgresServerAddress', () => {
  it('names the server as pg finds it: the string first, then PGHOST, PGPORT, PGDATABASE and PGUSER, then pg’s defaults', () => {
    const env = { PGHOST: 'env-host', PGPORT: '7777', PGDATABASE: 'env-db', PGUSER: 'env-user' };
    const address = (text: string, environment: Record<string, string> = env) =>
      postgresServerAddress(text, pgDefaults, environment);
    expect(address('postgres://weft:pw@db.internal:6543/agents')).toEqual({
      host: 'db.internal',
      port: 6543,
      database: 'agents',
    });
    expect(address('postgres://weft@db.internal/agents')).toEqual({
      host: 'db.internal',
      port: 7777,
      database: 'agents',
    });
    expect(address('postgres:///')).toEqual({ host: 'env-host', port: 7777, database: 'env-db' });
    // Parameters come before the URL's parts; a user without a host is read as pg reads it.
    expect(address('postgres://ada:pw@/?host=%2Ftmp%2Fsock&port=6000')).toEqual({
      host: '/tmp/sock',
      port: 6000,
      database: 'env-db',
    });
    expect(address('postgres://ada@[::1]/my%20db', {})).toEqual({
      host: '::1',
      port: 5432,
      database: 'my db',
    });
    // No database anywhere: pg connects to the user's, the string's, the environment's or its own.
    expect(address('postgres://ada@h/', { PGUSER: 'env-user' }).database).toBe('ada');
    expect(address('postgres://h/', { PGUSER: 'env-user' }).database).toBe('env-user');
    expect(address('postgres:///', {})).toEqual({
      host: 'localhost',
      port: 5432,
      database: 'os-user',
    });
    expect(postgresServerAddress('postgres:///', {}, {})).toEqual({
      host: 'localhost',
      port: 5432,
      database: '',
    });
  });

  it('leaves text that is not valid percent-encoding as written', () => {
    expect(postgresServerAddress('postgres://h/a%zz', pgDefaults, {}).database).toBe('a%zz');
  });
});

describe('postgresUrl', () => {
  it('reads a string that names a user but no host, and refuses one that is no URL at all', () => {
    expect(postgresUrl('postgres://ada:pw@/weft?host=/run/pg')).toMatchObject({
      hostLeftOut: true,
    });
    expect(postgresUrl('postgres://ada:pw@db/weft').hostLeftOut).toBe(false);
    expect(() => postgresUrl('db.internal/weft')).toThrow(TypeError);
  });
});

describe('postgresConnectionStringProblem', () => {
  it('refuses a string pg reads otherwise than the URL parser: postgres: without //, another scheme, white space before or after', () => {
    // The URL parser reads each of these as the URL without its faults; pg does not.
    for (const text of [
      'postgres:weft',
      'postgresql:/agents',
      'mysql://weft@db.internal/agents',
      ' postgres://weft@db.internal/agents',
      '\tpostgresql://weft@db.internal/agents',
      '',
    ]) {
      expect(postgresConnectionStringProblem(text), JSON.stringify(text)).toBe(
        'must start with postgres:// or postgresql://, with nothing before it',
      );
    }
    for (const text of ['postgres://weft@db.internal/agents ', 'postgres://db/agents\n']) {
      expect(postgresConnectionStringProblem(text), JSON.stringify(text)).toBe(
        'must not end with white space',
      );
    }
  });

  it('takes either scheme in any case, a host left out and parameters, never quoting the string', () => {
    for (const text of [
      'postgres://weft:pw@db.internal:6543/agents',
      'postgresql://weft@db.internal/agents',
      'POSTGRES://weft@db.internal/agents',
      'postgres://ada:pw@/weft?host=/run/pg',
      'postgres:///',
    ]) {
      expect(postgresConnectionStringProblem(text), text).toBeUndefined();
    }
    expect(postgresConnectionStringProblem(' postgres://weft:hunter2@db/agents')).not.toContain(
      'hunter2',
    );
  });
});
