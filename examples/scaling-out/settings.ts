/**
 * The settings of one instance of the Scaling out guide's support agent, read from the
 * environment once at start (main.ts lists them).
 */
import { hostname } from 'node:os';

/** A wrong setting, reported in one line before anything starts. */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

/** Settings read once at start, so that a wrong one stops the process before anything runs. */
export function readSettings(env: NodeJS.ProcessEnv): {
  databaseUrl: string;
  port: number;
  host: string;
  instance: string;
  workMs: number;
} {
  const databaseUrl = env.DATABASE_URL?.trim() ?? '';
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new SettingsError(
      'DATABASE_URL: set it to the shared database, such as postgres://weft@127.0.0.1:5433/postgres',
    );
  }
  const port = wholeNumber(env, 'PORT', 8787, 65_535);
  const host = env.HOST?.trim() || '127.0.0.1';
  return {
    databaseUrl,
    port,
    host,
    instance: env.INSTANCE?.trim() || `${hostname()}:${port}`,
    workMs: wholeNumber(env, 'WORK_MS', 2_000, 600_000),
  };
}

function wholeNumber(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  max: number,
): number {
  const raw = env[name]?.trim() || String(fallback);
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new SettingsError(
      `${name}: "${raw}" is not a whole number from 0 to ${max}`,
    );
  }
  return value;
}
