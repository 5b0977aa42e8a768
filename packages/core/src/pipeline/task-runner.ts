import type { Logger } from 'pino';
import type { AnalyticsManager } from '../analytics/analytics-manager.js';
import type { Bulkheads, CallGuard, WorkerLease } from '../bulkhead/bulkhead.js';
import type { MemoryManager } from '../memory/memory-manager.js';
import type { ModelManager } from '../models/model-manager.js';
import type { ExecutionContext, Executor } from '../plugins/executor.js';
import type { AgentTask, Context, PluginResult } from '../tasks/task.js';
import type { PromptRegistry } from '../prompts/prompt-registry.js';
import { settleWithin, TIMED_OUT } from '../util/deadline.js';
import { createTaskSignal } from '../util/task-signal.js';
import { cutText } from '../util/cut-text.js';
import { describeError, WeftError } from '../errors/weft-error.js';
import { errorDocsUrl } from '../errors/error-registry.js';
import { errorLogFields, MAX_LOGGED_ERROR_CHARS } from '../util/logger.js';
import { randomId } from '../util/random-id.js';
import type { Memory } from '../memory/memory-provider.js';
import type { PipelineGenerationContext, PipelineModificationContext } from './contexts.js';
import type { PipelineReview } from './review-policy.js';
import { PipelineModificationSchema, PipelineSchema, type PipelineStep } from './schemas.js';

/**
 * What the runner needs of the plugin registry. Naming only this keeps the runner below the
 * registry, whose plugins and triggers are handed the runtime that owns the runner.
 */
interface ExecutorLookup {
  getExecutor(pluginId: string, action: string): Executor | undefined;
  executors(): { pluginId: string; executor: Executor }[];
  /** Anything for a registered plugin, `undefined` for an unknown id. */
  get(pluginId: string): unknown;
}

interface TaskRunnerDeps {
  plugins: ExecutorLookup;
  models: ModelManager;
  memory: MemoryManager;
  prompts: PromptRegistry;
  analytics: AnalyticsManager;
  logger: Logger;
  maxSteps: number;
  pipelineReview: PipelineReview;
  reviewFinalStep: boolean;
  taskTimeoutMs: number;
  /** Limits per model provider, plugin and memory provider; none when absent. */
  bulkheads?: Bulkheads;
}

/** What one task's calls go through: its signal, logger, and model and memory views. */
interface TaskScope {
  signal: AbortSignal;
  logger: Logger;
  models: ModelManager;
  memory: MemoryManager;
  guard: CallGuard | undefined;
  /** What the task is doing now, so a timeout can name it. */
  activity: Activity;
  /** The task's view of the analytics, reporting with the task's logger. */
  analytics: AnalyticsManager;
}

/**
 * What a task is doing: a stage of its own, or a step. A timeout names it, because an executor
 * that ignores its signal never logs `step failed`, and the timeout is then the only trace.
 */
type Activity =
  | { stage: 'recording the trigger' | 'planning' | 'reviewing the pipeline' }
  | { stage: 'step'; stepIndex: number; step: PipelineStep };

/** The activity in words, for the timeout's message: `step 2 (tools.fetch)`. */
function describeActivity(activity: Activity): string {
  if (activity.stage !== 'step') return activity.stage;
  const { stepIndex, step } = activity;
  return `step ${stepIndex + 1} (${step.pluginId}.${step.action})`;
}

/**
 * How long the runtime waits for the memory provider to store a finished task's chain. The
 * task's own deadline has passed by then, and a hung store must not hold the worker forever.
 * @claim tsdoc-chain-write-timeout
 */
const CHAIN_WRITE_TIMEOUT_MS = 10_000;

/**
 * What the planning prompt shows in place of the history when the store could not be read, so
 * the model does not take a missing history for a new conversation.
 */
export const HISTORY_UNAVAILABLE =
  'Unavailable: the memory store could not be read, so earlier tasks are not shown.';

/**
 * Runs one task from plan to memory: records the trigger, asks the model for a pipeline, runs
 * its steps (recording failures as error items rather than throwing), lets the model revise
 * the rest after each step, and records the final chain. It never rejects for a failure inside
 * the task: the task's status and chain say what happened.
 */
export class TaskRunner {
  constructor(private readonly deps: TaskRunnerDeps) {}

  /**
   * Runs a task to its end and returns it; it never rejects for a failure inside the task.
   *
   * @param task - The queued task.
   * @param runtimeSignal - Aborted when the runtime cancels its tasks.
   * @param lease - The task's worker lease from the scheduler: waits on a full bulkhead give
   * the worker back through it.
   * @param abandon - Aborted when a stop gives up on its cancelled tasks: the wait for the
   * chain's write ends then, and the task is returned as it is, `recorded.chain` `false`.
   * @returns The task, with its final status.
   */
  async run(
    task: AgentTask,
    runtimeSignal: AbortSignal,
    lease?: WorkerLease,
    abandon?: AbortSignal,
  ): Promise<AgentTask> {
    const { memory, taskTimeoutMs } = this.deps;
    const started = performance.now();
    const fields = { taskId: task.id, space: task.space.id };
    const logger = this.deps.logger.child(fields);
    // Every line logged for the task carries its id, those of the analytics and models too.
    const analytics = this.deps.analytics.forTask(fields);
    // Each task gets its own signal, so listeners added by executors and providers end with the
    // task instead of piling up on the runtime's signal.
    const taskSignal = createTaskSignal(runtimeSignal);
    const { signal } = taskSignal;
    // A signal that fired before the task began (its space was lost before it ran, so another
    // instance may run it) means the task never ran here: it ends cancelled and, like a task a
    // stop drops from the queue, stores no memory, so the space's history does not say
    // `cancelled` of a task that runs elsewhere.
    const ranHere = !signal.aborted;
    let timedOut: Activity | undefined;
    const timer = setTimeout(() => {
      if (!signal.aborted) timedOut = scope.activity;
      taskSignal.abort(
        new WeftError(
          'WEFT_TASK_TIMEOUT',
          `TaskRunner: the task ran past its time limit of ${taskTimeoutMs} ms during ${describeActivity(scope.activity)}; raise options.taskTimeoutMs or make the slow step pass the signal on`,
        ),
      );
    }, taskTimeoutMs);
    const guard = this.guard(signal, lease);
    const scope: TaskScope = {
      signal,
      logger,
      guard,
      // Calls carry the task's message, so providers and test doubles need not parse prompts.
      models: this.deps.models.forTask(signal, guard, {
        fields,
        analytics,
        request: {
          id: task.id,
          ...(task.trigger.message === undefined ? {} : { message: task.trigger.message }),
        },
      }),
      analytics,
      memory: guard ? memory.forTask(guard) : memory,
      activity: { stage: 'recording the trigger' },
    };
    task.status = 'running';
    analytics.onTaskStart(task);
    try {
      // Racing the abort frees the worker even when an executor or provider ignores the signal.
      await untilAborted(signal, async () => {
        const trigger = await scope.memory.recordTrigger(task);
        // A write that answers after the task ended (timed out, cancelled) does not change the
        // task its trigger has been handed already: `recorded.trigger` stays `false`.
        if (signal.aborted) return;
        task.recorded.trigger = trigger !== undefined;
        await this.runPipeline(task, scope);
      });
    } catch (error) {
      // Only failures outside any step land here (planning, templates): record, never lose the task.
      if (!signal.aborted) {
        task.chain.push(errorItem('core', 'plan', `planning failed: ${describeError(error)}`));
        logger.error(errorLogFields(error), 'task failed');
      }
    } finally {
      clearTimeout(timer);
      taskSignal.release();
    }
    if (timedOut) {
      task.chain.push(errorItem('core', 'timeout', describeError(signal.reason)));
      const during = describeActivity(timedOut);
      const step = timedOut.stage === 'step' ? { step: timedOut.step } : {};
      logger.warn({ timeoutMs: taskTimeoutMs, during, ...step }, 'task timed out');
    }
    task.status = statusOf(task, signal.aborted && timedOut === undefined);
    if (!ranHere) {
      analytics.onTaskEndWithoutRun(task, performance.now() - started);
      logger.debug({ status: task.status }, 'task cancelled before it ran; nothing stored');
      return task;
    }
    // The task's signal may have aborted (a timeout): the chain is stored all the same, under a
    // signal of its own that aborts when the runtime stops waiting for it. That gives back the
    // memory bulkhead's slot, which a store call that never returns would otherwise hold for good.
    const chainDeadline = new AbortController();
    const chainGuard = this.guard(chainDeadline.signal, lease);
    const chainWriter = chainGuard ? memory.forTask(chainGuard) : memory;
    const chainMemory = await settleWithin(
      untilAbandoned(chainWriter.recordChain(task), abandon),
      CHAIN_WRITE_TIMEOUT_MS,
    );
    task.recorded.chain =
      chainMemory !== undefined && chainMemory !== TIMED_OUT && chainMemory !== ABANDONED;
    if (chainMemory === TIMED_OUT) {
      logger.error({ timeoutMs: CHAIN_WRITE_TIMEOUT_MS }, 'storing the chain memory timed out');
      chainDeadline.abort(
        new Error(`the chain was not stored within ${CHAIN_WRITE_TIMEOUT_MS} ms; given up`),
      );
    } else if (chainMemory === ABANDONED) {
      // The stop has logged the task's id as abandoned already: this wait just ends with it.
      chainDeadline.abort(new Error('the runtime stopped and gave up waiting for the chain'));
    }
    analytics.onTaskEnd(task, performance.now() - started);
    logger.debug({ status: task.status, steps: task.steps.length }, 'task finished');
    return task;
  }

  /** The bulkhead guard of a task's calls, bound to its signal and lease; none without bulkheads. */
  private guard(
    signal: AbortSignal | undefined,
    lease: WorkerLease | undefined,
  ): CallGuard | undefined {
    const { bulkheads } = this.deps;
    if (!bulkheads) return undefined;
    return (dependency, work, callSignal) => {
      // A call's own signal (a model call given `signal`) ends its wait for a slot too, as the
      // task's does: the call was abandoned, and would otherwise wait up to maxWaitMs for nothing.
      const both =
        callSignal === undefined || callSignal === signal
          ? signal
          : signal === undefined
            ? callSignal
            : AbortSignal.any([signal, callSignal]);
      return bulkheads.get(dependency).run(work, { signal: both, lease });
    };
  }

  private async runPipeline(task: AgentTask, scope: TaskScope): Promise<void> {
    const { maxSteps } = this.deps;
    const { signal, logger, models } = scope;
    const executors = this.describeExecutors();
    scope.activity = { stage: 'planning' };
    const related = await this.readHistory(task, scope);
    const generation: PipelineGenerationContext = {
      task,
      space: task.space,
      executors,
      memories: related.memories,
      relatedText: related.text,
      maxSteps,
    };
    const plan = await models.getObject({
      schema: PipelineSchema,
      schemaName: 'Pipeline',
      prompt: await this.deps.prompts.render('core/pipeline-generation', { ...generation }),
      request: { signal, purpose: 'plan' },
    });
    let remaining: PipelineStep[] = plan.steps;
    logger.debug({ steps: remaining }, 'pipeline planned');

    while (remaining.length > 0 && !signal.aborted) {
      if (task.steps.length >= maxSteps) {
        task.chain.push(
          errorItem(
            'core',
            'max-steps',
            `the task reached its limit of ${maxSteps} steps; ${remaining.length} planned step(s) did not run`,
          ),
        );
        // The task ends failed: say so at warn, as every other failure of a task is.
        logger.warn(
          { maxSteps, notRun: remaining.length },
          'task reached maxSteps; the remaining steps did not run',
        );
        return;
      }
      const step = remaining[0] as PipelineStep;
      remaining = remaining.slice(1);
      scope.activity = { stage: 'step', stepIndex: task.steps.length, step };
      const item = await this.runStep(task, step, scope);
      // The task may have timed out or been cancelled meanwhile: it is finished, leave it as is.
      if (signal.aborted) return;
      task.chain.push(item);
      task.steps.push(step);
      if (!this.shouldReview(item, remaining.length)) continue;
      const review: PipelineModificationContext = {
        task,
        space: task.space,
        chain: task.chain,
        completed: task.steps,
        remaining,
        executors,
        stepsLeft: maxSteps - task.steps.length,
      };
      scope.activity = { stage: 'reviewing the pipeline' };
      try {
        const modification = await models.getObject({
          schema: PipelineModificationSchema,
          schemaName: 'PipelineModification',
          prompt: await this.deps.prompts.render('core/pipeline-modification', { ...review }),
          request: { signal, purpose: 'review' },
        });
        if (signal.aborted) return;
        if (modification.type === 'replace') remaining = modification.steps;
        if (modification.type === 'stop') remaining = [];
        if (modification.type !== 'continue') logger.debug({ modification }, 'pipeline modified');
      } catch (error) {
        // A review cut short by the deadline or a cancellation ends the task: nothing is kept.
        if (signal.aborted) return;
        // A failed review keeps the current plan: the steps were already judged useful once.
        logger.warn(errorLogFields(error), 'pipeline review failed; keeping the remaining steps');
      }
    }
  }

  /**
   * The space's history for the planning prompt. A store that cannot be read does not stop the
   * task: it is planned without its history, and the task and the log say so, the log with an
   * error id the caller can quote. An aborted task rethrows, so its cancellation is not hidden.
   */
  private async readHistory(
    task: AgentTask,
    scope: TaskScope,
  ): Promise<{ memories: Memory[]; text: string }> {
    try {
      return await scope.memory.describeRelated(task.space, task.id);
    } catch (error) {
      if (scope.signal.aborted) throw error;
      const errorId = randomId();
      task.historyUnavailable = { errorId };
      scope.logger.warn(
        { errorId, ...errorLogFields(error) },
        'could not read the space’s history; planning the task without it',
      );
      return { memories: [], text: HISTORY_UNAVAILABLE };
    }
  }

  private async runStep(task: AgentTask, step: PipelineStep, scope: TaskScope): Promise<Context> {
    const { logger, guard } = scope;
    const started = performance.now();
    const stepIndex = task.steps.length;
    const executor = this.deps.plugins.getExecutor(step.pluginId, step.action);
    let item: Context;
    let failure: unknown;
    if (!executor) {
      const known = this.deps.plugins.get(step.pluginId)
        ? `plugin "${step.pluginId}" has no action "${step.action}"`
        : `no plugin "${step.pluginId}" is registered`;
      item = errorItem(step.pluginId, step.action, `unknown step: ${known}`);
    } else {
      const context = this.executionContext(task, step, stepIndex, scope);
      let result: PluginResult;
      try {
        const execute = async () => executor.execute(task, context);
        result = await (guard ? guard(`plugin:${step.pluginId}`, execute) : execute());
        item = toItem(step, result);
      } catch (error) {
        failure = error;
        item = errorItem(step.pluginId, step.action, describeError(error));
      }
    }
    if (item.type === 'error') {
      // The thrown error, when there is one, gives the line its code and docsUrl; a returned
      // failure gives them when its text is a Weft error's message, which ends its first line
      // with the code.
      const fields =
        failure === undefined ? returnedFailureFields(item.error) : errorLogFields(failure);
      logger.warn({ step, ...fields }, 'step failed');
    }
    scope.analytics.onStep({
      task,
      step,
      success: item.type === 'result',
      durationMs: performance.now() - started,
    });
    return item;
  }

  private executionContext(
    task: AgentTask,
    step: PipelineStep,
    stepIndex: number,
    scope: TaskScope,
  ): ExecutionContext {
    const { prompts } = this.deps;
    // Model calls made by the step stop with the task, without the executor passing the signal,
    // and go through the task's bulkheads, as do its memory calls.
    const { signal, logger, models, memory } = scope;
    return {
      pluginId: step.pluginId,
      step,
      stepIndex,
      chain: [...task.chain],
      models,
      memory,
      prompts,
      logger: logger.child({ pluginId: step.pluginId, action: step.action, stepIndex }),
      signal,
      getObject: (config) => models.getObject(config),
      render: (name, variables) =>
        prompts.render(name.includes('/') ? name : `${step.pluginId}/${name}`, variables),
    };
  }

  private shouldReview(item: Context, remaining: number): boolean {
    const policy = this.deps.pipelineReview;
    if (policy === 'never') return false;
    if (item.type === 'error') return true;
    // After a successful last step a review can only add steps: skipped unless asked for.
    return policy === 'always' && (remaining > 0 || this.deps.reviewFinalStep);
  }

  private describeExecutors(): PipelineGenerationContext['executors'] {
    return this.deps.plugins.executors().map(({ pluginId, executor }) => ({
      pluginId,
      action: executor.action,
      description: executor.description,
    }));
  }
}

function toItem(step: PipelineStep, result: PluginResult): Context {
  if (typeof result !== 'object' || result === null || typeof result.success !== 'boolean') {
    return errorItem(
      step.pluginId,
      step.action,
      `the executor returned ${describeReturned(result)} instead of a PluginResult ({ success: boolean, ... })`,
    );
  }
  if (!result.success) {
    // The reason is text; from JavaScript, or through a cast, it may be what a catch caught (an
    // Error): that is described like a thrown error, and is never marked for users either.
    // An empty text is no reason: the next one is used, so the item is never left with an empty
    // `error`, as a thrown error never is.
    const reason: unknown = givenReason(result.error) ?? givenReason(result.message);
    const written = reason === undefined || reason === null || typeof reason === 'string';
    return {
      type: 'error',
      pluginId: step.pluginId,
      action: step.action,
      data: result.data,
      // Cut as the error is: it may be the error's text, and a trigger answers a failure with
      // `error`, not with the message. A result's message is kept whole: triggers answer with it.
      message: typeof result.message === 'string' ? chainErrorText(result.message) : result.message,
      error: chainErrorText(
        written
          ? (reason ?? 'the executor reported failure without a reason')
          : describeError(reason),
      ),
      // Only a returned failure can be marked: a thrown error's text was not written for users.
      ...(result.expose === true && written ? { expose: true } : {}),
      timestamp: new Date(),
    };
  }
  return {
    type: 'result',
    pluginId: step.pluginId,
    action: step.action,
    data: result.data,
    message: result.message,
    timestamp: new Date(),
  };
}

/** A failed result's `error` or `message` as a reason: `undefined` when it is absent or empty. */
function givenReason(value: unknown): unknown {
  return value === '' ? undefined : value;
}

/**
 * The most characters of an error item's `error` text: as many as a log line keeps of it. A step
 * that throws an Error with a message of megabytes, or returns such an error text, would otherwise
 * store all of it in the chain memory, and a store refuses a memory longer than
 * `MAX_MEMORY_JSON_LENGTH`, losing the whole chain.
 */
const CHAIN_ERROR_CHARS = MAX_LOGGED_ERROR_CHARS;

/** An error item's text, cut to {@link CHAIN_ERROR_CHARS}. */
function chainErrorText(error: string): string {
  return cutText(error, CHAIN_ERROR_CHARS);
}

/** The most characters of a returned value the not-a-PluginResult error quotes. */
const RETURNED_CHARS = 200;

/**
 * A value an executor returned in place of a PluginResult, as its error item quotes it: its JSON,
 * cut to {@link RETURNED_CHARS}. A value with no JSON form (a bigint, a circular object) is named,
 * so the error still says that the executor returned no PluginResult rather than why
 * `JSON.stringify` failed; a returned Error, a common slip for a thrown one, gives its message.
 */
function describeReturned(value: unknown): string {
  return cutText(returnedText(value), RETURNED_CHARS);
}

function returnedText(value: unknown): string {
  if (value instanceof Error) return `an Error (${describeError(value)})`;
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'bigint') return `${value}n`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return 'an object with no JSON form';
  }
}

function errorItem(pluginId: string, action: string, error: string): Context {
  return { type: 'error', pluginId, action, error: chainErrorText(error), timestamp: new Date() };
}

/** The log fields of a failure an executor returned: its text, and the Weft code it names. */
function returnedFailureFields(error: string | undefined): {
  error: string | undefined;
  code?: string;
  docsUrl?: string;
} {
  const code = WEFT_CODE_AT_END.exec(error?.split('\n')[0] ?? '')?.[1];
  const logged = error === undefined ? undefined : cutText(error, MAX_LOGGED_ERROR_CHARS);
  return code === undefined
    ? { error: logged }
    : { error: logged, code, docsUrl: errorDocsUrl(code) };
}

/** The code a WeftError appends to the first line of its message, such as ` [WEFT_QUEUE_FULL]`. */
const WEFT_CODE_AT_END = / \[(WEFT_[A-Z0-9_]+)\]$/;

/** The status rule: see {@link AgentTask.status}. */
function statusOf(task: AgentTask, cancelled: boolean): AgentTask['status'] {
  if (cancelled) return 'cancelled';
  return task.chain.some((item) => item.type === 'error') ? 'failed' : 'completed';
}

const ABANDONED = Symbol('abandoned');

/**
 * Waits for `work` until `abandon` aborts, then resolves with {@link ABANDONED}, whatever the
 * work does later (a late rejection is handled). Without a signal this is `work` itself.
 */
async function untilAbandoned<T>(
  work: Promise<T>,
  abandon: AbortSignal | undefined,
): Promise<T | typeof ABANDONED> {
  if (!abandon) return work;
  work.catch(() => undefined);
  let onAbort: (() => void) | undefined;
  const abandoned = new Promise<typeof ABANDONED>((resolve) => {
    onAbort = () => resolve(ABANDONED);
    if (abandon.aborted) onAbort();
    else abandon.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, abandoned]);
  } finally {
    if (onAbort) abandon.removeEventListener('abort', onAbort);
  }
}

/**
 * Runs `work` until it settles or `signal` aborts, whichever comes first. Work still running
 * after an abort is left to finish on its own; its outcome is ignored.
 */
async function untilAborted(signal: AbortSignal, work: () => Promise<void>): Promise<void> {
  if (signal.aborted) return;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<void>((resolve) => {
    onAbort = resolve;
    signal.addEventListener('abort', onAbort, { once: true });
  });
  const running = work();
  running.catch(() => undefined);
  try {
    await Promise.race([running, aborted]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
