/**
 * The scripted model's answers the reader edits as JSON: the plan and review fields most examples
 * offer, and their check against the schemas the runtime parses them with, so that a bad answer
 * is named beside its field before anything runs.
 */
import { PipelineModificationSchema, PipelineSchema } from '@weft/core';
import type { AnswerField, AnswerProblem, RunInput } from './definition';

/** The plan and review answers most examples let the reader edit. */
export const PLAN_FIELD: AnswerField = {
  field: 'plan',
  label: "The model's plan answer (JSON)",
  name: 'plan answer',
  schema: PipelineSchema,
};
/**
 * Labelled for the runtime's default review policy ('always'): a plan of one step is reviewed
 * only when it fails, a longer one after each step but the last. An example that sets another
 * policy relabels the field (the chat example's 'on-failure').
 */
export const REVIEW_FIELD: AnswerField = {
  field: 'review',
  label:
    "The model's review answer (JSON, asked for after each step but the last, and after a failed step)",
  name: 'review answer',
  schema: PipelineModificationSchema,
};

/** An object as the panel's editors show it. */
export const asJson = (value: unknown): string => JSON.stringify(value, null, 2);

function describeIssuePath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(the answer itself)' : path.map(String).join('.');
}

/**
 * Checks the reader's answers against the schemas they will be parsed with.
 *
 * @returns The problems found, one per field at most; empty when every answer can be used.
 */
export function checkAnswers(fields: readonly AnswerField[], input: RunInput): AnswerProblem[] {
  const problems: AnswerProblem[] = [];
  for (const { field, name, schema } of fields) {
    let value: unknown;
    try {
      value = JSON.parse(input.answers[field] ?? '');
    } catch (error) {
      problems.push({ field, message: `${name}: not valid JSON (${(error as Error).message})` });
      continue;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) continue;
    const issue = parsed.error.issues[0];
    problems.push({
      field,
      message: `${name}: ${describeIssuePath(issue?.path ?? [])}: ${issue?.message ?? 'invalid'}`,
    });
  }
  return problems;
}
