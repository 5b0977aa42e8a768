/**
 * Benchmark of the durable memory providers on the same machine, in the same run: stores per
 * second and query latency (p50, p99) at 100,000 memories, for PostgresMemoryProvider on a real
 * PostgreSQL server (started in a temporary directory by libs/test-support/postgres-server.ts, as the
 * tests do) and SqliteMemoryProvider on a file in a temporary directory.
 *
 * The memories spread over 1,000 spaces, four kinds and 50,000 tasks. Stores run from
 * `--concurrency` callers at once (better-sqlite3 is synchronous, so SQLite serialises them
 * anyway). The queries come after the stores, one at a time, in four shapes the runtime and
 * plugins use: one space, a prefix, patterns with a kind, and a task.
 *
 * Run with `npm run bench -- memory` (six minutes on two cores that other test suites were also
 * using; less on a quiet machine); `--memories`, `--queries` and `--concurrency` change the sizes. It prints figures and always exits 0: timings depend on
 * the machine, so nothing here is asserted.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { MemoryProvider, QueryMemoryOptions } from '@weft/core';
import { PostgresMemoryProvider } from '@weft/memory-postgres';
import { SqliteMemoryProvider } from '@weft/memory-sqlite';
import { startPostgres } from '@weft-internal/test-support/postgres-server';

const { values } = parseArgs({
  options: {
    memories: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '16' },
  },
});
const MEMORIES = positive('memories', values.memories);
const QUERIES = positive('queries', values.queries);
const CONCURRENCY = positive('concurrency', values.concurrency);
const SPACES = 1_000;
const KINDS = ['note', 'chain', 'trigger', 'fact'];

function positive(name: string, text: string | undefined): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new Error(`bench-memory: --${name} must be a positive integer, got ${String(text)}`);
  }
  return value;
}

interface Figures {
  storesPerSecond: number;
  storeP99Ms: number;
  queryP50Ms: number;
  queryP99Ms: number;
  byShape: Map<string, number>;
}

function percentile(samples: number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

/** The query of round `index`, cycling through the four shapes. */
function queryOf(index: number): [string, QueryMemoryOptions] {
  const space = (index * 7919) % SPACES;
  switch (index % 4) {
    case 0:
      return ['one space, newest 20', { space: `room-${space}`, limit: 20 }];
    case 1:
      return ['prefix, newest 20', { spacePrefix: `room-${space % 100}-`, limit: 20 }];
    case 2:
      return [
        'patterns and a kind, newest 20',
        { spacePatterns: [`room-${space}`, `room-${space}-*`], kind: 'note', limit: 20 },
      ];
    default:
      return ['one task', { taskId: `task-${(index * 104_729) % (MEMORIES / 2)}` }];
  }
}

async function measure(memory: MemoryProvider): Promise<Figures> {
  await memory.init();
  try {
    const storeTimes: number[] = [];
    let next = 0;
    const started = performance.now();
    const caller = async (): Promise<void> => {
      for (let index = next++; index < MEMORIES; index = next++) {
        const before = performance.now();
        await memory.store({
          // Spaces nest two deep (room-7 and room-7-3) so prefixes and patterns match several.
          space: index % 3 === 0 ? `room-${index % SPACES}` : `room-${index % SPACES}-${index % 5}`,
          kind: KINDS[index % KINDS.length]!,
          content: { text: `memory ${index}`, words: ['a', 'b', 'c'], n: index },
          taskId: `task-${Math.floor(index / 2)}`,
          metadata: { source: 'bench' },
        });
        storeTimes.push(performance.now() - before);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, caller));
    const storesPerSecond = MEMORIES / ((performance.now() - started) / 1000);

    const queryTimes: number[] = [];
    const shapes = new Map<string, number[]>();
    for (let index = 0; index < QUERIES; index += 1) {
      const [shape, options] = queryOf(index);
      const before = performance.now();
      await memory.query(options);
      const took = performance.now() - before;
      queryTimes.push(took);
      shapes.set(shape, [...(shapes.get(shape) ?? []), took]);
    }
    return {
      storesPerSecond,
      storeP99Ms: percentile(storeTimes, 0.99),
      queryP50Ms: percentile(queryTimes, 0.5),
      queryP99Ms: percentile(queryTimes, 0.99),
      byShape: new Map([...shapes].map(([shape, times]) => [shape, percentile(times, 0.99)])),
    };
  } finally {
    await memory.shutdown();
  }
}

const fixed = (value: number, digits: number): string => value.toFixed(digits).padStart(10);

async function main(): Promise<void> {
  console.log(
    `bench-memory: ${MEMORIES.toLocaleString('en')} memories over ${SPACES} spaces, ` +
      `${CONCURRENCY} concurrent callers, then ${QUERIES.toLocaleString('en')} queries one at a time`,
  );
  const directory = await mkdtemp(join(tmpdir(), 'weft-bench-memory-'));
  const server = await startPostgres();
  const results: [string, Figures][] = [];
  try {
    const url = await server.createDatabase('bench');
    console.log('PostgreSQL: a local server on loopback (the test harness: fsync=off) ...');
    results.push([
      'PostgresMemoryProvider',
      await measure(new PostgresMemoryProvider({ connectionString: url, pool: { max: 16 } })),
    ]);
    console.log(
      'SQLite: a file in a temporary directory (WAL mode, synchronous as better-sqlite3 sets it) ...',
    );
    results.push([
      'SqliteMemoryProvider',
      await measure(new SqliteMemoryProvider({ path: join(directory, 'bench.db') })),
    ]);
  } finally {
    await server.destroy();
    await rm(directory, { recursive: true, force: true });
  }

  console.log(
    `\n${'provider'.padEnd(24)}${'stores/s'.padStart(10)}${'store p99'.padStart(10)}` +
      `${'query p50'.padStart(10)}${'query p99'.padStart(10)}   (ms)`,
  );
  for (const [name, figures] of results) {
    console.log(
      `${name.padEnd(24)}${fixed(figures.storesPerSecond, 0)}${fixed(figures.storeP99Ms, 2)}` +
        `${fixed(figures.queryP50Ms, 2)}${fixed(figures.queryP99Ms, 2)}`,
    );
  }
  console.log('\nquery p99 by shape (ms)');
  const shapes = [...(results[0]?.[1].byShape.keys() ?? [])];
  for (const shape of shapes) {
    const cells = results.map(
      ([name, figures]) => `${name} ${(figures.byShape.get(shape) ?? NaN).toFixed(2)}`,
    );
    console.log(`  ${shape.padEnd(32)}${cells.join('   ')}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
