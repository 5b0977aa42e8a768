/**
 * The model double of a run in the page: scripted providers that ask the example's `answer`
 * function for each call's text and report the call (its prompt and answer, or its failure) and
 * the plan or review the answer decided, as the panel's events.
 */
import { PipelineModificationSchema, PipelineSchema, type ModelRequestConfig } from '@weft/core';
import { ScriptedModelProvider } from '@weft/testing';
import type { UntimedRunEvent } from './definition';

/** A message of a model call's prompt. */
type Message = { role: 'system' | 'user' | 'assistant'; content: string };

/** Answers one model call: a text, or a throw that the call reports as failed. */
export type Answerer = (
  provider: string,
  messages: readonly Message[],
  request: ModelRequestConfig,
) => string | Promise<string>;

/** The prompt of a model call as one text: each message's role, then its content. */
export function promptText(messages: readonly { role: string; content: string }[]): string {
  return messages.map((message) => `[${message.role}] ${message.content}`).join('\n\n');
}

/**
 * The plan or review event an answer decided, if it parses as one: what the runtime will act on,
 * shown apart from the raw answer. Anything else (a reply's text, an object) decides nothing.
 */
export function decisionOf(purpose: string, text: string): UntimedRunEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (purpose === 'plan') {
    const plan = PipelineSchema.safeParse(value);
    return plan.success ? { kind: 'plan', steps: plan.data.steps } : undefined;
  }
  if (purpose === 'review') {
    const review = PipelineModificationSchema.safeParse(value);
    if (!review.success) return undefined;
    const { data } = review;
    return {
      kind: 'review',
      decision: data.type,
      ...(data.type === 'replace' ? { steps: data.steps } : {}),
      ...('reason' in data && typeof data.reason === 'string' ? { reason: data.reason } : {}),
    };
  }
  return undefined;
}

/**
 * One scripted provider per id, each answering through `answer` and reporting every call.
 *
 * @param ids - The providers' ids; the first is the runtime's default.
 * @param answer - The example's answers.
 * @param report - Receives each event as it happens; the run times it.
 */
export function scriptedModels(
  ids: readonly string[],
  answer: Answerer,
  report: (event: UntimedRunEvent) => void,
): ScriptedModelProvider[] {
  return ids.map(
    (id) =>
      new ScriptedModelProvider({
        id,
        fallback: async (messages, request) => {
          const purpose = request.purpose ?? 'reply';
          const prompt = promptText(messages);
          let text: string;
          try {
            text = await answer(id, messages, request);
          } catch (error) {
            const failure = (error as Error).message;
            report({
              kind: 'model-call',
              purpose,
              provider: id,
              prompt,
              answer: failure,
              failed: true,
            });
            throw error;
          }
          report({
            kind: 'model-call',
            purpose,
            provider: id,
            prompt,
            answer: text,
            failed: false,
          });
          const decision = decisionOf(purpose, text);
          if (decision) report(decision);
          return text;
        },
      }),
  );
}
