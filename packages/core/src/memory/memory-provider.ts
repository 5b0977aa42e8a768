/**
 * A space: the scope that tasks and memories belong to. Ids are hierarchical by convention,
 * most general first, joined with `-`: `chat-room-42` for a room and `chat-room-42-user-7` for
 * one person in it. Tasks of one space run one at a time, in arrival order.
 */
export interface Space {
  /** The space's id, such as `chat-room-42-user-7`. */
  readonly id: string;
  /**
   * Patterns of other spaces whose memories are relevant to tasks of this one. A pattern is a
   * space id in which `*` matches any run of characters: `chat-room-42-*` matches every space
   * under the room, and `chat-room-42` the room itself. End the fixed text with the separator:
   * `chat-room-42*` also matches `chat-room-420`. The space itself is always included. At most
   * 100 patterns ({@link MAX_QUERY_SPACE_PATTERNS}): a store refuses a query with more, and the
   * task is then planned without its history.
   * @claim tsdoc-core-related-spaces-max
   * @claim tsdoc-core-related-spaces-separator
   */
  readonly relatedSpaces?: readonly string[];
  /** A human description, shown to the model in the planning prompt when present. */
  readonly description?: string;
}

/** One stored memory: a JSON-serialisable record attached to a space. */
export interface Memory {
  /** Id assigned by the memory provider. */
  readonly id: string;
  /** Id of the space the memory belongs to. */
  readonly space: string;
  /** What the memory records, such as `trigger` or `chain`; free-form for plugins. */
  readonly kind: string;
  /** The recorded value; must survive `JSON.stringify`. */
  readonly content: unknown;
  /** Id of the task that produced the memory, when there was one. */
  readonly taskId?: string;
  /** Free-form, JSON-serialisable metadata. */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** When the memory was stored. */
  readonly createdAt: Date;
}

/**
 * Filters for {@link MemoryProvider.query}. All given filters must match; space filters
 * (`space`, `spacePrefix`, `spacePatterns`) match when any one of them does, and an empty
 * `spacePatterns` list on its own matches no space. Space matching is case-sensitive.
 */
export interface QueryMemoryOptions {
  /** Exact space id. */
  space?: string;
  /** Space id prefix: `chat-room-42` matches `chat-room-42` and `chat-room-42-user-7`. */
  spacePrefix?: string;
  /** Space patterns in which `*` matches any run of characters (see {@link Space.relatedSpaces}). */
  spacePatterns?: readonly string[];
  /** Only memories of this kind. */
  kind?: string;
  /** Only memories produced by this task. */
  taskId?: string;
  /** Only memories created at or after this instant. */
  since?: Date;
  /** Only memories created before this instant. */
  until?: Date;
  /** Most memories to return: a positive integer; 100 ({@link DEFAULT_MEMORY_QUERY_LIMIT}) by default. */
  limit?: number;
  /** Order by creation time; `desc` (newest first) by default. */
  order?: 'asc' | 'desc';
}

/**
 * Base class of every memory store. Implementations keep memories durable and answer queries
 * by space, kind, task and time; the {@link MemoryManager} builds the runtime's behaviour on
 * top of these primitives.
 *
 * Every store keeps one contract, so code written against one store holds for every other: it
 * checks its input with {@link checkNewMemory}, {@link checkMemoryPatch}, {@link checkMemoryId},
 * {@link checkClearSpace} and {@link checkMemoryQuery}, and reports an unknown id with
 * {@link memoryNotFound}, so the same input is refused with the same code everywhere
 * (`WEFT_MEMORY_INVALID`, `WEFT_MEMORY_INVALID_QUERY`, `WEFT_MEMORY_NOT_FOUND`,
 * `WEFT_INVALID_ARGUMENT`). Codes of a store's own backend (opening, migrations, connections,
 * timeouts) stay its own. `memoryProviderContract` from `@weft/testing` checks a store against
 * the contract.
 *
 * @example
 * ```ts
 * import {
 *   checkMemoryPatch,
 *   checkMemoryQuery,
 *   checkNewMemory,
 *   memoryNotFound,
 *   MemoryProvider,
 *   type Memory,
 *   type QueryMemoryOptions,
 * } from '@weft/core';
 *
 * class ForgetfulMemory extends MemoryProvider {
 *   readonly id = 'forgetful';
 *   async store(memory: Omit<Memory, 'id' | 'createdAt'>): Promise<Memory> {
 *     const checked = checkNewMemory(memory, 'ForgetfulMemory');
 *     return {
 *       id: crypto.randomUUID(),
 *       space: checked.space,
 *       kind: checked.kind,
 *       content: JSON.parse(checked.content) as unknown,
 *       ...(checked.taskId === undefined ? {} : { taskId: checked.taskId }),
 *       metadata: JSON.parse(checked.metadata) as Record<string, unknown>,
 *       createdAt: new Date(),
 *     };
 *   }
 *   async update(id: string, patch: { content?: unknown }): Promise<Memory> {
 *     const checked = checkMemoryPatch(id, patch, 'ForgetfulMemory');
 *     throw memoryNotFound(checked.id, 'ForgetfulMemory');
 *   }
 *   async query(options: QueryMemoryOptions): Promise<Memory[]> {
 *     checkMemoryQuery(options, 'ForgetfulMemory');
 *     return [];
 *   }
 *   async remove(): Promise<boolean> {
 *     return false;
 *   }
 *   async clear(): Promise<number> {
 *     return 0;
 *   }
 * }
 * ```
 * @claim tsdoc-core-provider-same-code
 */
export abstract class MemoryProvider {
  /** Unique id of this provider instance, used in logs and errors. */
  abstract readonly id: string;

  /** Opens the store (files, connections, migrations). Called once when the runtime starts. */
  async init(): Promise<void> {}

  /**
   * Reports whether the store can serve requests.
   *
   * @returns `true` when healthy.
   */
  async checkHealth(): Promise<boolean> {
    return true;
  }

  /** Flushes and closes the store. Called once when the runtime stops. */
  async shutdown(): Promise<void> {}

  /**
   * Stores a memory.
   *
   * @param memory - The memory without its id and timestamp, which the store assigns.
   * @returns The stored memory, with content and metadata as their JSON form.
   * @throws {@link WeftError} `WEFT_MEMORY_INVALID` naming the field when the memory breaks the
   * rules of {@link checkNewMemory}; nothing is stored then.
   * @claim tsdoc-core-provider-store-throws
   */
  abstract store(memory: Omit<Memory, 'id' | 'createdAt'>): Promise<Memory>;

  /**
   * Replaces the content and/or metadata of a stored memory.
   *
   * @param id - The memory's id.
   * @param patch - The fields to replace; a field absent or `undefined` is kept.
   * @returns The updated memory.
   * @throws {@link WeftError} `WEFT_MEMORY_NOT_FOUND` naming the id when no memory has it;
   * `WEFT_MEMORY_INVALID` naming the field when the patch breaks the rules of
   * {@link checkMemoryPatch} (nothing is changed then); `WEFT_INVALID_ARGUMENT` when `id` is not a
   * string.
   * @claim tsdoc-core-provider-update-throws
   */
  abstract update(
    id: string,
    patch: { content?: unknown; metadata?: Record<string, unknown> },
  ): Promise<Memory>;

  /**
   * Finds memories.
   *
   * @param options - Filters, order and limit.
   * @returns The matching memories.
   * @throws {@link WeftError} `WEFT_MEMORY_INVALID_QUERY` naming the option when one breaks the
   * rules of {@link checkMemoryQuery}.
   * @claim tsdoc-core-provider-query-throws
   */
  abstract query(options: QueryMemoryOptions): Promise<Memory[]>;

  /**
   * Deletes one memory.
   *
   * @param id - The memory's id.
   * @returns `true` when a memory was deleted, `false` when no memory has this id.
   * @throws {@link WeftError} `WEFT_INVALID_ARGUMENT` when `id` is not a string.
   * @claim tsdoc-core-provider-remove-throws
   */
  abstract remove(id: string): Promise<boolean>;

  /**
   * Deletes every memory, or those of one space.
   *
   * @param space - When given, only memories whose space is exactly this id.
   * @returns How many memories were deleted.
   * @throws {@link WeftError} `WEFT_INVALID_ARGUMENT` when `space` is given and not a string.
   * @claim tsdoc-core-provider-clear-throws
   */
  abstract clear(space?: string): Promise<number>;
}
