/**
 * Over a long run the provider keeps no JavaScript object per memory: the rows live in SQLite,
 * and what `store` and `query` were given or returned is collectable once the caller drops it.
 * A FinalizationRegistry (which holds no reference of its own) watches those objects; forced
 * collections run until every one is finalized, with a deadline instead of a fixed sleep.
 */
import { MAX_QUERY_SPACE_PATTERNS } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { collectUntil, finalizationCounter } from '@weft-internal/test-support/collection';
import { useTempDatabase } from './helpers.js';

describe('SqliteMemoryProvider over a long run', () => {
  const database = useTempDatabase();

  it('holds none of the memories it stored or returned, across many query shapes', async () => {
    const provider = await database.open();
    const { finalized, watch } = finalizationCounter();
    const memories = 3_000;
    // In a function of its own, so that its finished frame, not the test's, held the last ones.
    const fill = async (): Promise<number> => {
      let watched = 0;
      for (let index = 0; index < memories; index += 1) {
        const input = {
          space: `room-${index % 50}-user-${index % 7}`,
          kind: index % 2 === 0 ? 'trigger' : 'chain',
          taskId: `task-${index}`,
          content: { text: `message ${index}`, steps: [index] },
          metadata: { requestId: `r${index}` },
        };
        watch(input, 'memory');
        watch(await provider.store(input), 'memory');
        watched += 2;
        if (index % 10 === 0) {
          // A different number of patterns is a different SQL text: more shapes (up to the most
          // patterns a query may name) than the provider's statement cache holds.
          const patterns = Array.from(
            { length: 1 + (index % MAX_QUERY_SPACE_PATTERNS) },
            (_, n) => `room-${n}-*`,
          );
          for (const found of await provider.query({ spacePatterns: patterns, limit: 5 })) {
            watch(found, 'memory');
            watched += 1;
          }
        }
      }
      return watched;
    };
    const watched = await fill();
    expect(await provider.query({ spacePrefix: 'room-', limit: memories })).toHaveLength(memories);
    await collectUntil(() => (finalized.get('memory') ?? 0) >= watched);
    expect(finalized.get('memory') ?? 0).toBe(watched);
  });
});
