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

/**
 * Why node-postgres would read the connection string otherwise than the URL parser does, if it
 * would. The URL parser drops white space around a string and reads `postgres:weft` as a URL, but
 * pg reads such strings otherwise: ` postgres://h/db` as a relative URL on a host named `base`,
 * `postgres:weft` as database `eft`, and `postgres://h/db ` as database `db ` (with the space).
 * Messages built from {@link postgresServerAddress} would then name a server or database pg never
 * tried. The scheme's case does not count (`POSTGRES://` is read as `postgres://`).
 *
 * @param connectionString - The connection string.
 * @returns The reason it is refused, to follow the option's name in a message (such as
 *   `must not end with white space`), or `undefined` when pg reads it as the URL parser does.
 *   Never quotes the string, which may hold a password.
 */
export function postgresConnectionStringProblem(connectionString: string): string | undefined {
  if (!/^postgres(ql)?:\/\//i.test(connectionString)) {
    return 'must start with postgres:// or postgresql://, with nothing before it';
  }
  if (connectionString.trimEnd() !== connectionString) return 'must not end with white space';
  return undefined;
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
