import { describe, expect, it } from 'vitest';
import { postgresServerAddress, postgresUrl } from '../src/internal.js';

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
