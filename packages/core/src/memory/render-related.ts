import type { Memory } from './memory-provider.js';

/** Limits of {@link renderRelatedMemories}. */
export interface RelatedRenderLimits {
  /** Most entries to show. */
  readonly maxEntries: number;
  /** Most characters of the whole rendering. */
  readonly maxChars: number;
  /**
   * Whether an outcome that is a failed step gives the step's error text (default `true`).
   * `false` writes only that the step failed, for a prompt whose answer a user reads: the text
   * may quote upstream URLs, keys or an executor's internals.
   */
  readonly failureReasons?: boolean;
  /**
   * Steps, as `pluginId/action`, whose result an entry shows besides its outcome when the task
   * ran them with success before its last item: the chat plugins' reply lists the answer a user
   * got even when a later step, or the task's timeout, ended that task.
   */
  readonly results?: readonly string[];
}

/** What the rendering shows when there is nothing to show. */
export const NO_RELATED_MEMORIES = 'None.';

// Each field is cut so one long message cannot take the whole budget from the entries after it.
const MESSAGE_CHARS = 300;
const DATA_CHARS = 200;
const OUTCOME_CHARS = 300;

/**
 * The fields of a recorded task that the rendering reads. Stored memories come back from JSON,
 * so every field is checked before use rather than trusted.
 */
interface RecordedItem {
  type?: unknown;
  pluginId?: unknown;
  action?: unknown;
  message?: unknown;
  data?: unknown;
  error?: unknown;
}

/**
 * Renders memories (newest first, as {@link MemoryManager.related} returns them) as the planning
 * prompt shows them: one entry per earlier task, merging its `trigger` and `chain` memories, and
 * one per other memory. An entry says when, in which space, which trigger and what was asked,
 * the steps run, the results of the steps `results` names that a later item followed, and the
 * outcome (the last item of the chain). Entries are kept newest first
 * while they fit `maxChars` (the newest is cut to fit when it alone is longer); a line counting
 * the entries left out for length is added when it fits too.
 *
 * @param memories - Related memories, newest first.
 * @param limits - Most entries and most characters.
 * @returns The rendering, at most `maxChars` long; {@link NO_RELATED_MEMORIES} when empty.
 * @claim tsdoc-render-related-merge
 * @claim tsdoc-render-related-budget
 * @claim tsdoc-render-related-cut
 * @claim tsdoc-render-related-note
 * @claim tsdoc-render-related-none
 * @claim tsdoc-render-related-failure-reasons
 * @claim tsdoc-render-related-results
 */
export function renderRelatedMemories(
  memories: readonly Memory[],
  limits: RelatedRenderLimits,
): string {
  const reasons = limits.failureReasons ?? true;
  const results = new Set(limits.results ?? []);
  const entries = groupByTask(memories).map((group) => renderEntry(group, reasons, results));
  if (entries.length === 0 || limits.maxEntries === 0) return NO_RELATED_MEMORIES;
  const shown = entries.slice(0, limits.maxEntries);
  const kept: string[] = [];
  let length = 0;
  for (const entry of shown) {
    const added = (kept.length > 0 ? 1 : 0) + entry.length;
    if (length + added > limits.maxChars) break;
    kept.push(entry);
    length += added;
  }
  if (kept.length === 0) return cut(entries[0] as string, limits.maxChars);
  const omitted = shown.length - kept.length;
  const note = `(${omitted} older ${omitted === 1 ? 'entry' : 'entries'} left out for length.)`;
  if (omitted > 0 && length + 1 + note.length <= limits.maxChars) kept.push(note);
  return kept.join('\n');
}

/** The memories of one task (trigger and chain), or one memory that belongs to no task. */
type Group = { trigger?: Memory; chain?: Memory; other?: Memory; newest: Memory };

function groupByTask(memories: readonly Memory[]): Group[] {
  const groups: Group[] = [];
  const byTask = new Map<string, Group>();
  for (const memory of memories) {
    const isTaskRecord = memory.kind === 'trigger' || memory.kind === 'chain';
    if (memory.taskId === undefined || !isTaskRecord) {
      groups.push({ other: memory, newest: memory });
      continue;
    }
    let group = byTask.get(memory.taskId);
    if (!group) {
      group = { newest: memory };
      byTask.set(memory.taskId, group);
      groups.push(group);
    }
    // Newest first: keep the first of each kind, which is the latest one stored.
    if (memory.kind === 'trigger') group.trigger ??= memory;
    else group.chain ??= memory;
  }
  return groups;
}

function renderEntry(group: Group, reasons: boolean, results: ReadonlySet<string>): string {
  if (group.other) return renderOther(group.other);
  const chainContent = record(group.chain?.content);
  const chain = Array.isArray(chainContent.chain) ? (chainContent.chain as unknown[]) : [];
  // The chain's first item is the trigger, so a chain memory alone still says what was asked.
  const trigger = record(group.trigger?.content ?? chain[0]);
  const asked = group.trigger ?? group.chain ?? group.newest;
  const lines = [
    `- ${when(asked.createdAt)}, space ${asked.space}, trigger ${name(trigger)}` +
      (typeof trigger.message === 'string' && trigger.message !== ''
        ? `: ${cut(oneLine(trigger.message), MESSAGE_CHARS)}`
        : ''),
  ];
  if (trigger.data !== undefined && trigger.data !== null) {
    lines.push(`  Data: ${cut(json(trigger.data), DATA_CHARS)}`);
  }
  if (!group.chain) {
    lines.push('  Outcome: not recorded (the task may still be running).');
    return lines.join('\n');
  }
  const steps = Array.isArray(chainContent.steps) ? (chainContent.steps as unknown[]) : [];
  lines.push(
    `  Steps: ${steps.length === 0 ? 'none' : steps.map((step) => name(record(step))).join(', ')}`,
  );
  const status = typeof chainContent.status === 'string' ? chainContent.status : 'unknown';
  const last = chain.length > 1 ? record(chain.at(-1)) : undefined;
  // Results asked for that a later item would hide, oldest first; the trigger is never one.
  for (const item of chain.slice(1, -1).map(record)) {
    if (item.type !== 'error' && results.has(name(item))) {
      lines.push(`  Result: ${cut(outcome(item, reasons), OUTCOME_CHARS)}`);
    }
  }
  lines.push(
    `  Outcome: ${status}${last ? `; ${cut(outcome(last, reasons), OUTCOME_CHARS)}` : ''}`,
  );
  return lines.join('\n');
}

function renderOther(memory: Memory): string {
  return `- ${when(memory.createdAt)}, space ${memory.space}, ${memory.kind}: ${cut(json(memory.content), OUTCOME_CHARS)}`;
}

function outcome(item: RecordedItem, reasons: boolean): string {
  const from = name(item);
  if (item.type === 'error') {
    if (!reasons) return `${from} failed`;
    return `${from} failed: ${typeof item.error === 'string' ? oneLine(item.error) : 'no reason given'}`;
  }
  if (typeof item.message === 'string' && item.message !== '') {
    return `${from}: ${oneLine(item.message)}`;
  }
  if (item.data !== undefined && item.data !== null) return `${from} returned ${json(item.data)}`;
  return `${from} succeeded`;
}

function record(value: unknown): RecordedItem & Record<string, unknown> {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

function name(item: RecordedItem): string {
  const plugin = typeof item.pluginId === 'string' ? item.pluginId : 'unknown';
  return typeof item.action === 'string' ? `${plugin}/${item.action}` : plugin;
}

function when(date: Date): string {
  // Minutes are enough to tell tasks apart for the model, and keep entries short.
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  // Never keep half of a surrogate pair (an emoji): alone it has no UTF-8 form.
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}
