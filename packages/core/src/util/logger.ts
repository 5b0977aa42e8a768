import { pino, type Logger } from 'pino';

/**
 * The root logger when the user supplies none: JSON to stdout at `info`, or at the level named
 * by `WEFT_LOG_LEVEL`. Tests pass `pino({ level: 'silent' })` to keep their output clean.
 */
export function createDefaultLogger(): Logger {
  return pino({ name: 'weft', level: process.env.WEFT_LOG_LEVEL ?? 'info' });
}
