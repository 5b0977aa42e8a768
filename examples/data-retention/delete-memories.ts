import {
  spaceId,
  type MemoryProvider,
  type QueryMemoryOptions,
} from '@weft/core';

/** The filters a deletion takes: a query's, without its paging. */
export type MemoryFilter = Omit<QueryMemoryOptions, 'limit' | 'order'>;

/**
 * Deletes every memory that `filter` matches and returns how many. The
 * memory API deletes one memory (`remove`) or one exact space (`clear`), so
 * this queries a batch, removes it, and repeats until nothing matches.
 */
export async function deleteMemories(
  memory: MemoryProvider,
  filter: MemoryFilter,
  batchSize = 100,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const batch = await memory.query({ ...filter, limit: batchSize });
    let removed = 0;
    for (const item of batch) {
      if (await memory.remove(item.id)) removed += 1;
    }
    deleted += removed;
    // A batch that could not be removed would be found again forever.
    if (batch.length < batchSize || removed === 0) return deleted;
  }
}

/** Retention: deletes the memories of every space stored before the cutoff. */
export function deleteOlderThan(
  memory: MemoryProvider,
  maxAgeMs: number,
  now: Date = new Date(),
): Promise<number> {
  return deleteMemories(memory, { until: new Date(now.getTime() - maxAgeMs) });
}

/**
 * Deletes what the chat plugin stored for one user, in every room. Its spaces
 * are `spaceId('chat', 'room', room, 'user', user)`, whose parts never hold a
 * `-`, so the pattern matches this user's spaces and no other user's.
 */
export function forgetChatUser(
  memory: MemoryProvider,
  user: string,
): Promise<number> {
  return deleteMemories(memory, {
    spacePatterns: [`${spaceId('chat', 'room')}-*-${spaceId('user', user)}`],
  });
}
