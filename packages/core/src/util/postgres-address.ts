/**
 * How node-postgres reads a connection string, for the first-party PostgreSQL packages' options
 * and messages. The core does not depend on pg: its defaults are passed in.
 */

/** Host, port and database of the server node-postgres connects to. */
export interface PostgresServerAddress {
  readonly host: string;
  readonly port: number;
  /** Empty when neither the string, the environment nor pg's defaults name one. */
  readonly database: string;
}

/** What node-postgres falls back on when neither the string nor the environment says (`pg.defaults`). */
export interface PostgresDefaults {
  readonly host?: string | undefined;
  readonly port?: number | string | undefined;
  readonly user?: unknown;
}

/**
 * The connection string as a URL, as node-postgres reads it: a string naming a user but no host
 * (`postgres://weft:pw@/weft?host=/var/run/postgresql`) is no valid URL, and pg reads it as one
 * whose host is left out.
 *
 * @param connectionString - The connection string.
 * @returns The URL, and whether its host was left out.
 * @throws The URL parser's `TypeError` when the string is no URL even so.
 */
export function postgresUrl(connectionString: string): { url: URL; hostLeftOut: boolean } {
  try {
    return { url: new URL(connectionString), hostLeftOut: false };
  } catch (error) {
    const withHost = connectionString.replace('@/', '@host.invalid/');
    if (withHost === connectionString) throw error;
    return { url: new URL(withHost), hostLeftOut: true };
  }
}

/** `text` percent-decoded, or as written when it is not valid percent-encoding. */
function decoded(text: string, decode: (text: string) => string): string {
  try {
    return decode(text);
  } catch {
    return text;
  }
}

/**
 * Where node-postgres connects: what the connection string names (its `host`, `port` and `user`
 * parameters before the URL's parts), and for what it leaves out, libpq's variables `PGHOST`,
 * `PGPORT`, `PGDATABASE` (and `PGUSER`, for a database named after the user) and then pg's
 * defaults, read as pg reads them each time it opens a connection. Never the password.
 *
 * @param connectionString - A connection string {@link postgresUrl} reads.
 * @param defaults - node-postgres's `pg.defaults`.
 * @param env - The environment pg reads.
 * @returns The address.
 * @throws As {@link postgresUrl} does.
 */
export function postgresServerAddress(
  connectionString: string,
  defaults: PostgresDefaults,
  env: Readonly<Record<string, string | undefined>>,
): PostgresServerAddress {
  const { url, hostLeftOut } = postgresUrl(connectionString);
  const parameter = (name: string): string => url.searchParams.get(name) ?? '';
  const hostname = hostLeftOut ? '' : url.hostname.replace(/^\[(.*)\]$/, '$1');
  const host =
    parameter('host') ||
    decoded(hostname, decodeURIComponent) ||
    env.PGHOST ||
    defaults.host ||
    'localhost';
  const port = Number.parseInt(
    parameter('port') || url.port || env.PGPORT || String(defaults.port ?? 5432),
    10,
  );
  const user =
    parameter('user') ||
    decoded(url.username, decodeURIComponent) ||
    env.PGUSER ||
    (typeof defaults.user === 'string' ? defaults.user : '');
  const database = decoded(url.pathname.replace(/^\//, ''), decodeURI);
  return { host, port, database: database || env.PGDATABASE || user };
}
