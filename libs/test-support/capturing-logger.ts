/**
 * A pino logger whose lines a test reads back, parsed: the packages' tests and the cross-package
 * tests assert on what the framework logs, and all of them need the same capture.
 */
import { pino, type Logger } from 'pino';

/** One log line, as pino wrote it in JSON. */
export type LogLine = Record<string, unknown>;

/**
 * A logger at `level` and the array its lines land in, in the order written. The array fills as
 * the logger writes (pino writes synchronously to this destination), so a test can read it at
 * any point, or note its length to take only the lines written after.
 */
export function capturingLogger(level = 'debug'): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const destination = {
    // One write is one line; splitting keeps the capture right if pino ever joins several.
    write(chunk: string): void {
      for (const text of chunk.split('\n')) {
        if (text.trim() !== '') lines.push(JSON.parse(text) as LogLine);
      }
    },
  };
  return { logger: pino({ level }, destination), lines };
}
