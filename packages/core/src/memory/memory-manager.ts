import type { Logger } from 'pino';
import type { AgentTask } from '../tasks/task.js';
import type { CallGuard } from '../bulkhead/bulkhead.js';
import { errorLogFields } from '../util/logger.js';
import type { Memory, MemoryProvider, QueryMemoryOptions, Space } from './memory-provider.js';
import { renderRelatedMemories } from './render-related.js';

/** Most reads `related()` makes to find enough memories besides those of the excluded task. */
const MAX_RELATED_READS = 3;

/**
 * The runtime's view of memory. It records each task's trigger when the task starts and its
 * final context chain when it ends, both in the task's space, and finds the memories related
 * to a space for the planning prompt. Plugins reach it as `context.memory` and may store and
 * query their own memories through it.
 *
 * @example
 * ```ts
 * import type { ExecutionContext } from '@weft/core';
 *
 * async function rememberPreference(context: ExecutionContext, space: string, colour: string) {
 *   await context.memory.store({ space, kind: 'preference', content: { colour }, metadata: {} });
 *   const recent = await context.memory.query({ spacePrefix: space, kind: 'preference', limit: 5 });
 *   return recent.length;
 * }
 * ```
 */
export class MemoryManager {
  /** The underlying store. */
  readonly provider: MemoryProvider;
  private readonly relatedLimit: number;
  private readonly relatedChars: number;
  private readonly logger: Logger | undefined;
  private guard: CallGuard | undefined;

  /**
   * Creates a manager over a memory store.
   *
   * @param provider - The memory store.
   * @param options - `relatedLimit`: how many earlier tasks (or other memories)
   * {@link MemoryManager.describeRelated} renders at most (default 10); `relatedChars`: the most
   * characters its rendering may take (default 4000); a `logger`.
   */
  constructor(
    provider: MemoryProvider,
    options: { relatedLimit?: number; relatedChars?: number; logger?: Logger } = {},
  ) {
    this.provider = provider;
    this.relatedLimit = options.relatedLimit ?? 10;
    this.relatedChars = options.relatedChars ?? 4000;
    this.logger = options.logger;
  }

  /**
   * A view for one task whose calls to the provider run under its bulkhead
   * (`memory:<provider id>`).
   *
   * @param guard - The task's bulkhead guard.
   * @returns A manager over the same provider and options.
   * @internal
   */
  forTask(guard: CallGuard): MemoryManager {
    const view = Object.create(this) as MemoryManager;
    view.guard = guard;
    return view;
  }

  /**
   * Stores a memory.
   *
   * @param memory - The memory without id and timestamp.
   * @returns The stored memory.
   */
  store(memory: Omit<Memory, 'id' | 'createdAt'>): Promise<Memory> {
    return this.guarded(() => this.provider.store(memory));
  }

  /**
   * Finds memories.
   *
   * @param options - Filters, order and limit.
   * @returns The matching memories.
   */
  query(options: QueryMemoryOptions): Promise<Memory[]> {
    return this.guarded(() => this.provider.query(options));
  }

  /**
   * Replaces the content or metadata of a memory.
   *
   * @param id - The memory's id.
   * @param patch - The fields to replace.
   * @returns The updated memory.
   */
  update(
    id: string,
    patch: { content?: unknown; metadata?: Record<string, unknown> },
  ): Promise<Memory> {
    return this.guarded(() => this.provider.update(id, patch));
  }

  /**
   * Deletes a memory.
   *
   * @param id - The memory's id.
   * @returns `true` when one was deleted.
   */
  remove(id: string): Promise<boolean> {
    return this.guarded(() => this.provider.remove(id));
  }

  /**
   * Finds the memories relevant to a space: its own, and those of the spaces matching its
   * {@link Space.relatedSpaces} patterns, newest first.
   *
   * @param space - The space.
   * @param limit - Most memories to return; defaults to the manager's `relatedLimit`.
   * @param excludeTaskId - Leaves out the memories of this task, so a task being planned does
   * not see its own trigger among its related memories. Its memories do not take the places of
   * others: the store is read once, for `limit` memories and one more, and read again with more
   * room, three reads at most, only when the task's own memories left fewer than `limit` others
   * in a full read (as those of a task run again after a cut-short run can).
   * @returns The memories.
   * @claim tsdoc-core-related-own-excluded
   */
  async related(
    space: Space,
    limit: number = this.relatedLimit,
    excludeTaskId?: string,
  ): Promise<Memory[]> {
    if (limit === 0) return [];
    const read = (rows: number) =>
      this.query({
        space: space.id,
        spacePatterns: space.relatedSpaces ?? [],
        limit: rows,
        order: 'desc',
      });
    if (excludeTaskId === undefined) return read(limit);
    // A task's first run stores one memory (its trigger) before it is planned: one extra row
    // is enough. A task run again from the start keeps its id and has, from each earlier run, a
    // trigger and often a chain, which can take the rows of the others.
    let rows = limit + 1;
    for (let reads = 1; ; reads += 1) {
      const memories = await read(rows);
      const others = memories.filter((memory) => memory.taskId !== excludeTaskId);
      const exhausted = memories.length < rows;
      if (others.length >= limit || exhausted || reads === MAX_RELATED_READS) {
        return others.slice(0, limit);
      }
      // The page was full and short of others: read again with room for twice the task's own
      // rows seen, since its earlier runs can have left more below them. Each read asks for
      // more rows than the one before, and the reads are bounded.
      rows = limit + 2 * (memories.length - others.length) + 1;
    }
  }

  /**
   * Finds the memories related to a space and renders them as the planning prompt shows them
   * (and any step that asks for the history, such as the chat plugins' reply):
   * one entry per earlier task (when, which space and trigger, what was asked, the steps run and
   * the outcome), merging the task's `trigger` and `chain` memories, and one entry per other
   * memory; newest first, at most `relatedLimit` entries and `relatedChars` characters, the most
   * recent kept when the budget runs out.
   *
   * @param space - The space being planned for.
   * @param excludeTaskId - The task being planned, whose own memories are left out.
   * @param options - `failureReasons: false` writes an earlier task that ended with a failed step
   * as failed without the step's error text, for a prompt whose answer a user reads (the chat
   * plugins' reply): the text may quote upstream URLs, keys or an executor's internals.
   * `results` names steps (`pluginId/action`) whose result an entry shows on a line of its own
   * when a later item followed it, which the outcome alone would hide (the chat plugins' reply
   * names the reply steps of every chat plugin of the runtime, so its prompt shows each answer
   * given).
   * @returns `memories`: the memories read, newest first; `text`: their rendering (`None.`
   * when there are none).
   */
  async describeRelated(
    space: Space,
    excludeTaskId?: string,
    options: { failureReasons?: boolean; results?: readonly string[] } = {},
  ): Promise<{ memories: Memory[]; text: string }> {
    // A task stores two memories (trigger and chain); the extra third leaves room for plugins'.
    const memories = await this.related(space, this.relatedLimit * 3, excludeTaskId);
    const text = renderRelatedMemories(memories, {
      maxEntries: this.relatedLimit,
      maxChars: this.relatedChars,
      failureReasons: options.failureReasons ?? true,
      results: options.results,
    });
    return { memories, text };
  }

  /**
   * Records the trigger of a task that is starting, as a `trigger` memory of its space.
   *
   * @param task - The task.
   * @returns The stored memory, or `undefined` when the store failed (the failure is logged:
   * a memory outage must not stop the agent from answering).
   */
  async recordTrigger(task: AgentTask): Promise<Memory | undefined> {
    return this.safely(task, 'trigger', {
      pluginId: task.trigger.pluginId,
      action: task.trigger.action,
      message: task.trigger.message,
      data: task.trigger.data,
    });
  }

  /**
   * Records a finished task's status, steps and context chain, as a `chain` memory of its space.
   *
   * @param task - The finished task.
   * @returns The stored memory, or `undefined` when the store failed (logged).
   */
  async recordChain(task: AgentTask): Promise<Memory | undefined> {
    return this.safely(task, 'chain', {
      status: task.status,
      steps: task.steps,
      chain: task.chain,
    });
  }

  private guarded<T>(work: () => Promise<T>): Promise<T> {
    return this.guard ? this.guard(`memory:${this.provider.id}`, work) : work();
  }

  private async safely(
    task: AgentTask,
    kind: string,
    content: unknown,
  ): Promise<Memory | undefined> {
    try {
      return await this.store({
        space: task.space.id,
        kind,
        content,
        taskId: task.id,
        metadata: { ...task.metadata },
      });
    } catch (error) {
      this.logger?.error(
        { taskId: task.id, space: task.space.id, kind, ...errorLogFields(error) },
        'could not store memory',
      );
      return undefined;
    }
  }
}
