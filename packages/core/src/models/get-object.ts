import * as z from 'zod';
import type { ModelRequestConfig } from './model-provider.js';
import { cutText } from '../util/cut-text.js';

/**
 * What {@link ModelManager.getObject} needs: the schema to satisfy and the prompt to send.
 *
 * @typeParam T - The zod schema of the wanted value.
 */
export interface GetObjectConfig<T extends z.ZodType = z.ZodType> {
  /** The schema the answer must satisfy; it is also shown to the model as JSON Schema. */
  schema: T;
  /** The request, in the user's words. */
  prompt: string;
  /** Extra system instructions placed before the schema. */
  system?: string;
  /** Name of the schema in prompts and errors; defaults to `object`. */
  schemaName?: string;
  /** How many times to ask again after an invalid answer; defaults to the runtime's setting (2). */
  maxRetries?: number;
  /** Options for the underlying text-generation calls (temperature, provider, signal). */
  request?: ModelRequestConfig<{ temperature?: number; maxTokens?: number }>;
}

/**
 * Finds the JSON value in a model's answer: the whole text, the body of a fenced code block,
 * or the span from the first opening brace or bracket to the last matching closing one.
 */
export function extractJson(text: string): unknown {
  const trimmed = text.trim();
  const candidates = [trimmed];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(trimmed);
  if (fenced?.[1]) candidates.push(fenced[1].trim());
  const start = trimmed.search(/[[{]/);
  if (start >= 0) {
    const closing = trimmed[start] === '{' ? '}' : ']';
    const end = trimmed.lastIndexOf(closing);
    if (end > start) candidates.push(trimmed.slice(start, end + 1));
  }
  let firstError: unknown;
  for (const candidate of candidates) {
    try {
      return JSON.parse(candidate);
    } catch (error) {
      firstError ??= error;
    }
  }
  // The parser's message quotes the answer as it is, line breaks included: they are escaped, so
  // the problem stays one line, as the start of the answer quoted after it does.
  const reason = firstError instanceof Error ? escapeLineBreaks(firstError.message) : 'unparsable';
  throw new SyntaxError(
    `the answer is not JSON (${reason}); it began with ${JSON.stringify(trimmed.slice(0, 80))}`,
  );
}

function escapeLineBreaks(text: string): string {
  return text.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}

/**
 * The most validation problems getObject quotes, in its retry message and its final error. An
 * answer with thousands of wrong items gives a validation error of hundreds of kilobytes, and
 * each retry sends the whole conversation again: quoting it all made the third request of one
 * such answer 1.7 MB. The first problems are what a model needs to correct its answer.
 */
export const MAX_QUOTED_PROBLEMS = 20;

/**
 * The most characters of the problems getObject quotes: a problem quotes keys and paths of the
 * model's answer, which the answer can make as long as it likes.
 */
export const MAX_QUOTED_PROBLEM_CHARS = 4_000;

/**
 * A validation error as getObject quotes it: zod's text of its first {@link MAX_QUOTED_PROBLEMS}
 * issues, cut to {@link MAX_QUOTED_PROBLEM_CHARS}, then a line that counts the issues left out.
 */
export function quotedProblems(error: z.ZodError): string {
  const { issues } = error;
  const shown = z.prettifyError(new z.ZodError(issues.slice(0, MAX_QUOTED_PROBLEMS)));
  const leftOut = issues.length - MAX_QUOTED_PROBLEMS;
  const cut = cutText(shown, MAX_QUOTED_PROBLEM_CHARS);
  return leftOut > 0
    ? `${cut}\n✖ and ${leftOut} more ${leftOut === 1 ? 'problem' : 'problems'}, left out`
    : cut;
}
