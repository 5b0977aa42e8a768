/**
 * A process that hands its stop to `onStopSignal` and keeps a timer running that would hold the
 * event loop open forever, for the signal test. The argument picks the case: `stops` (the stop
 * resolves), `fails` (it rejects), `hangs` (it never settles), `slow` (it resolves after 500 ms and writes `stopped`), `exit-code` (the process had set exitCode 3 before), or
 * `removed` (the function `onStopSignal` returned is called at once), `idle` (the stop clears the
 * timer, so nothing keeps the process alive after it) or `busy-pool` (libuv's thread pool is busy for a
 * moment when the signal comes, and the stop logs `stop finished`). It logs JSON to stdout,
 * writes `stopping` when its stop runs and `ready` once it listens.
 */
import { pbkdf2 } from 'node:crypto';
import { pino } from 'pino';
import { onStopSignal } from '../../src/platform/node.js';

const mode = process.argv[2] ?? 'stops';
const logger = pino({ level: 'info' });

const keepAlive = setInterval(() => undefined, 1_000);

const remove = onStopSignal(async () => {
  process.stdout.write('stopping\n');
  if (mode === 'idle') clearInterval(keepAlive);
  if (mode === 'fails') throw new Error('the stop broke');
  if (mode === 'hangs') await new Promise(() => undefined);
  if (mode === 'busy-pool') logger.info('stop finished');
  if (mode === 'slow') {
    await new Promise((resolve) => setTimeout(resolve, 500));
    process.stdout.write('stopped\n');
  }
}, logger);
if (mode === 'removed') remove();
if (mode === 'exit-code') process.exitCode = 3;

if (mode === 'busy-pool') {
  // Work for libuv's four threads as the signal comes: pino's write of the signal's line waits
  // in the pool behind it, while the stop logs its own last line and resolves.
  for (let job = 0; job < 4; job += 1) {
    pbkdf2('secret', 'salt', 100_000, 64, 'sha256', () => undefined);
  }
}

process.stdout.write('ready\n');
