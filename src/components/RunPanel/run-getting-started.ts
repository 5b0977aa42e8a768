/**
 * Runs the getting-started agent in the page: the plugin and the scripted model are the files
 * Getting started shows and its tests run (examples/getting-started/), with the in-memory memory
 * provider. Only the answers the reader edited replace the script's own, and every event of the
 * run (trigger, plan, model calls, steps, memories, status) is reported as it happens, timed from
 * the start of the run.
 *
 * The runtime is built with `Runtime.init` rather than the example's `createAgent`: that one asks
 * for the HTTP server and process signals, which exist only in Node.js. The task is dispatched as
 * the plugin's route handler dispatches it.
 */
import {
  PipelineModificationSchema,
  PipelineSchema,
  Runtime,
  spaceId,
  type AgentTask,
  type AnalyticsTracker,
  type Memory,
  type ModelRequestConfig,
} from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';

import { AssistantPlugin } from '../../../examples/getting-started/assistant-plugin';
import { createScriptedModel } from '../../../examples/getting-started/scripted-model';

/** What the reader can change before a run. */
export interface RunInput {
  user: string;
  message: string;
  /** The plan answer as JSON text. */
  planAnswer: string;
  /** The review answer as JSON text (asked for only after a failed step or with steps left). */
  reviewAnswer: string;
  /** Makes the reply's model call fail, so the step fails and the review runs. */
  failReply: boolean;
}

/** One thing that happened during a run, `atMs` after it started. */
export type RunEvent = { atMs: number } & (
  | { kind: 'trigger'; space: string; message: string }
  | { kind: 'model-call'; purpose: string; prompt: string; answer: string; failed: boolean }
  | { kind: 'plan'; steps: { pluginId: string; action: string; reason?: string }[] }
  | { kind: 'step'; pluginId: string; action: string; success: boolean; text: string }
  | { kind: 'memory'; memoryKind: string; space: string }
  | { kind: 'status'; status: AgentTask['status']; reply?: string }
);

/** A reader's answer that cannot be used, naming the field that was wrong. */
export interface AnswerProblem {
  field: 'planAnswer' | 'reviewAnswer';
  message: string;
}

/** The error the preset's failing model call throws; it is shown in the step's error item. */
export const PRESET_FAILURE = 'The model server did not answer (the failing preset).';

async function scriptedAnswer(purpose: 'plan' | 'review'): Promise<string> {
  const [capability] = createScriptedModel().capabilities;
  if (!capability) throw new Error('run panel: the scripted model offers no capability');
  const { text } = (await capability.run({ messages: [] }, { purpose })) as { text: string };
  return JSON.stringify(JSON.parse(text), null, 2);
}

/** The answers examples/getting-started/scripted-model.ts gives, as the panel's editors start. */
export async function defaultAnswers(): Promise<Pick<RunInput, 'planAnswer' | 'reviewAnswer'>> {
  return { planAnswer: await scriptedAnswer('plan'), reviewAnswer: await scriptedAnswer('review') };
}

function describeIssuePath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(the answer itself)' : path.map(String).join('.');
}

function checkAnswer(
  field: AnswerProblem['field'],
  label: string,
  text: string,
  schema: typeof PipelineSchema | typeof PipelineModificationSchema,
): AnswerProblem | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { field, message: `${label}: not valid JSON (${(error as Error).message})` };
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  return {
    field,
    message: `${label}: ${describeIssuePath(issue?.path ?? [])}: ${issue?.message ?? 'invalid'}`,
  };
}

/**
 * Checks the reader's answers against the schemas the runtime parses them with.
 *
 * @returns The problems found, empty when both answers can be used.
 */
export function checkAnswers(
  input: Pick<RunInput, 'planAnswer' | 'reviewAnswer'>,
): AnswerProblem[] {
  return [
    checkAnswer('planAnswer', 'plan answer', input.planAnswer, PipelineSchema),
    checkAnswer('reviewAnswer', 'review answer', input.reviewAnswer, PipelineModificationSchema),
  ].filter((problem): problem is AnswerProblem => problem !== undefined);
}

/** The prompt of a model call as one text: each message's role, then its content. */
function promptText(messages: readonly { role: string; content: string }[]): string {
  return messages.map((message) => `[${message.role}] ${message.content}`).join('\n\n');
}

/**
 * Runs one task of the getting-started agent.
 *
 * @param input - The reader's message and answers; check them first with {@link checkAnswers}.
 * @param onEvent - Called with each event as it happens.
 * @returns The finished task.
 */
export async function runGettingStarted(
  input: RunInput,
  onEvent: (event: RunEvent) => void,
): Promise<AgentTask> {
  const started = performance.now();
  const at = (): number => Math.round((performance.now() - started) * 10) / 10;
  const [exampleCapability] = createScriptedModel().capabilities;
  if (!exampleCapability) throw new Error('run panel: the scripted model offers no capability');

  async function answer(
    messages: readonly { role: 'system' | 'user' | 'assistant'; content: string }[],
    request: ModelRequestConfig,
  ): Promise<string> {
    if (request.purpose === 'plan') return input.planAnswer;
    if (request.purpose === 'review') return input.reviewAnswer;
    if (input.failReply) throw new Error(PRESET_FAILURE);
    const { text } = (await exampleCapability!.run({ messages: [...messages] }, request)) as {
      text: string;
    };
    return text;
  }

  const model = new ScriptedModelProvider({
    fallback: async (messages, request) => {
      const purpose = request.purpose ?? 'reply';
      const prompt = promptText(messages);
      try {
        const text = await answer(messages, request);
        onEvent({ atMs: at(), kind: 'model-call', purpose, prompt, answer: text, failed: false });
        if (request.purpose === 'plan') {
          const plan = PipelineSchema.safeParse(JSON.parse(text));
          if (plan.success) onEvent({ atMs: at(), kind: 'plan', steps: plan.data.steps });
        }
        return text;
      } catch (error) {
        const message = (error as Error).message;
        onEvent({ atMs: at(), kind: 'model-call', purpose, prompt, answer: message, failed: true });
        throw error;
      }
    },
  });

  class ObservedMemory extends InMemoryMemoryProvider {
    override async store(memory: Omit<Memory, 'id' | 'createdAt'>): Promise<Memory> {
      const stored = await super.store(memory);
      onEvent({ atMs: at(), kind: 'memory', memoryKind: stored.kind, space: stored.space });
      return stored;
    }
  }

  const tracker: AnalyticsTracker = {
    onTaskStart(task) {
      onEvent({
        atMs: at(),
        kind: 'trigger',
        space: task.space.id,
        message: task.trigger.message ?? '',
      });
    },
    // Called before the step's item joins the chain, so its text comes from the executor.
    onStep({ step, success }) {
      onEvent({
        atMs: at(),
        kind: 'step',
        pluginId: step.pluginId,
        action: step.action,
        success,
        text: lastOutcome ?? `unknown step: ${step.pluginId}.${step.action}`,
      });
      lastOutcome = undefined;
    },
  };

  // The example's executors, observed: what each returned or threw is the step's text.
  let lastOutcome: string | undefined;
  const plugin = new AssistantPlugin();
  for (const executor of plugin.executors) {
    const execute = executor.execute.bind(executor);
    executor.execute = async (task, context) => {
      try {
        const result = await execute(task, context);
        lastOutcome = (result.success ? result.message : result.error) ?? '';
        return result;
      } catch (error) {
        lastOutcome = error instanceof Error ? error.message : String(error);
        throw error;
      }
    };
  }

  const runtime = await Runtime.init({
    models: [model],
    memory: new ObservedMemory(),
    plugins: [plugin],
    // The page has no server for the plugin's route trigger; it is dispatched to directly.
    options: { analytics: { trackers: [tracker] }, logger: pino({ level: 'silent' }) },
  });
  await runtime.start();
  try {
    const task = await runtime.dispatch({
      pluginId: 'assistant',
      triggerId: 'message',
      space: spaceId('user', input.user),
      message: input.message,
    });
    const last = task.chain.at(-1);
    onEvent({
      atMs: at(),
      kind: 'status',
      status: task.status,
      ...(task.status === 'completed' && last?.type === 'result' && last.message !== undefined
        ? { reply: last.message }
        : {}),
    });
    return task;
  } finally {
    await runtime.stop();
  }
}
