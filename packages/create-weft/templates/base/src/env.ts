import { existsSync } from 'node:fs';
import { DEFAULT_PORT } from './port.js';

/** A problem with the agent's settings, reported at start-up before anything runs. */
export class SetupError extends Error {
  override readonly name = 'SetupError';
}

/**
 * Loads `.env` into `process.env` with Node's own parser, when the file exists. Variables
 * already set in the shell win over the file, so a deployment can override it.
 */
export function loadEnvFile(file = '.env'): void {
  if (existsSync(file)) process.loadEnvFile(file);
}

/** The HTTP port from `PORT` (default {@link DEFAULT_PORT}; 0 picks a free one). */
export function readPort(env: NodeJS.ProcessEnv): number {
  const raw = env.PORT?.trim() || String(DEFAULT_PORT);
  const port = Number(raw);
  // Digits only: Number() would also read '0x50' as 80 and '1e3' as 1000.
  if (!/^\d+$/.test(raw) || port > 65_535) {
    throw new SetupError(`PORT: "${raw}" is not a port number; set a whole number from 0 to 65535`);
  }
  return port;
}

/**
 * The interface to listen on from `HOST`: 127.0.0.1 by default, so only this machine can reach
 * the agent; the container image sets 0.0.0.0, so that its published port reaches it.
 */
export function readHost(env: NodeJS.ProcessEnv): string {
  const host = env.HOST?.trim() || '127.0.0.1';
  if (/\s/.test(host)) {
    throw new SetupError(`HOST: "${host}" is not an address; set an IP address such as 0.0.0.0`);
  }
  return host;
}
