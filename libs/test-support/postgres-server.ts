import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from './commands.js';

/** A real PostgreSQL server that a test started in a temporary directory. */
export interface PostgresServer {
  /** Host the server listens on (always loopback). */
  readonly host: string;
  /** The free port it was given. */
  readonly port: number;
  /** The superuser's name; the password is {@link PostgresServer.password}. */
  readonly user: string;
  readonly password: string;
  /** A connection string for the `postgres` database. */
  readonly connectionString: string;
  /** Creates a database and returns its connection string (each test file gets its own). */
  createDatabase(name: string): Promise<string>;
  /** Stops the server (fast shutdown) and keeps its data directory, for a restart. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts it again on the same port with the same data. */
  start(): Promise<void>;
  /** Stops the server and deletes its data directory. */
  destroy(): Promise<void>;
}

const COMMAND_TIMEOUT_MS = 60_000;

/**
 * Finds Debian's PostgreSQL binaries (`/usr/lib/postgresql/<major>/bin`), newest major first.
 * `PG_BIN` overrides the search. `.ci/run` installs the `postgresql` package when it is missing;
 * `scripts/ensure-postgres.ts` (before `npm run test:unit`) only checks, and names the command.
 */
export function findPostgresBin(): string {
  const override = process.env.PG_BIN;
  if (override) {
    // A wrong PG_BIN fails here, by name, rather than later as a spawn error inside a test.
    if (existsSync(join(override, 'initdb')) && existsSync(join(override, 'pg_ctl')))
      return override;
    throw new Error(
      `PG_BIN (${override}) holds no initdb and pg_ctl; point it at the folder that does.`,
    );
  }
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const major of majors) {
    const bin = join(root, major, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return bin;
  }
  throw new Error(
    'PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin. Install them with ' +
      '`apt-get install -y postgresql` (Debian), or set PG_BIN to the folder holding initdb and pg_ctl.',
  );
}

/** A loopback port nothing listens on at the moment of asking (the OS picked it, then it was closed). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Creates a cluster with `initdb` in a temporary directory and starts it with `pg_ctl` on a free
 * loopback port, with password authentication. Running as root (as CI does), the server runs as
 * the `postgres` system user, since PostgreSQL refuses to run as root.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = findPostgresBin();
  const dir = await mkdtemp(join(tmpdir(), 'weft-pg-'));
  const dataDir = join(dir, 'data');
  const port = await freePort();
  const host = '127.0.0.1';
  const user = 'weft';
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const asRoot = process.getuid?.() === 0;
  const run = async (command: string, args: string[]): Promise<void> => {
    const full = join(bin, command);
    if (asRoot) {
      await runCommand('runuser', ['-u', 'postgres', '--', full, ...args], {
        cwd: dir,
        timeoutMs: COMMAND_TIMEOUT_MS,
      });
    } else {
      await runCommand(full, args, { cwd: dir, timeoutMs: COMMAND_TIMEOUT_MS });
    }
  };

  const passwordFile = join(dir, 'password');
  await writeFile(passwordFile, `${password}\n`, { mode: 0o644 });
  if (asRoot) await runCommand('chown', ['-R', 'postgres', dir], { cwd: dir, timeoutMs: 10_000 });
  await run('initdb', [
    '-D',
    dataDir,
    '-U',
    user,
    '--pwfile',
    passwordFile,
    '-A',
    'scram-sha-256',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale',
    'C',
  ]);
  const options = [
    `-p ${port}`,
    `-h ${host}`,
    // The socket goes into the temp dir: /var/run/postgresql may not exist or be writable.
    `-k ${dir}`,
    '-c fsync=off',
    '-c max_connections=200',
  ].join(' ');
  const logFile = join(dir, 'server.log');

  const start = () => run('pg_ctl', ['-D', dataDir, '-l', logFile, '-o', options, '-w', 'start']);
  const stop = (mode: 'fast' | 'immediate' = 'fast') =>
    run('pg_ctl', ['-D', dataDir, '-m', mode, '-w', 'stop']);
  await start();
  let running = true;

  const base = `postgres://${user}:${encodeURIComponent(password)}@${host}:${port}`;
  return {
    host,
    port,
    user,
    password,
    connectionString: `${base}/postgres`,
    async createDatabase(name: string): Promise<string> {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name: ${name}`);
      await psql(bin, base, `CREATE DATABASE ${name}`);
      return `${base}/${name}`;
    },
    async stop(mode) {
      if (!running) return;
      await stop(mode);
      running = false;
    },
    async start() {
      if (running) return;
      await start();
      running = true;
    },
    async destroy() {
      if (running) await stop('immediate').catch(() => undefined);
      running = false;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function psql(bin: string, base: string, sql: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      join(bin, 'psql'),
      [`${base}/postgres`, '-v', 'ON_ERROR_STOP=1', '-c', sql],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), COMMAND_TIMEOUT_MS);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`psql failed (${code}): ${stderr}`));
    });
  });
}

/**
 * A connection string without the password and port of `url`, and the two it left out: for a
 * test that the client takes them from PGPASSWORD and PGPORT, as the driver pg does.
 */
export function withoutPasswordAndPort(url: string): {
  connectionString: string;
  password: string;
  port: string;
} {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  const { port } = parsed;
  parsed.password = '';
  parsed.port = '';
  return { connectionString: parsed.toString(), password, port };
}
