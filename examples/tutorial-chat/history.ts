import type { Context, MemoryManager } from '@weft/core';

/** One message of a conversation, as the chat-completions API takes it. */
export interface Turn {
  role: 'user' | 'assistant';
  content: string;
}

/** The part of a `chain` memory this tutorial reads: the task's context chain. */
interface StoredChain {
  chain?: Context[];
}

/**
 * Rebuilds a conversation's exchanges from the `chain` memories of its last
 * `limit` finished tasks: each chain's first item is the user's message and its
 * `answer` result is the reply. A task that ended without a reply is left out
 * (it still counts towards `limit`), so the model never sees a question twice
 * without an answer between.
 */
export async function loadHistory(
  memory: MemoryManager,
  space: string,
  limit: number,
): Promise<Turn[]> {
  const memories = await memory.query({
    space,
    kind: 'chain',
    order: 'desc',
    limit,
  });
  const turns: Turn[] = [];
  for (const stored of memories.reverse()) {
    const chain = (stored.content as StoredChain).chain ?? [];
    const question = chain[0]?.message;
    const answer = chain.find(
      (item) => item.type === 'result' && item.action === 'answer',
    )?.message;
    if (question === undefined || answer === undefined) continue;
    turns.push(
      { role: 'user', content: question },
      { role: 'assistant', content: answer },
    );
  }
  return turns;
}
