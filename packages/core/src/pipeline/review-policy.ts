/**
 * The policies for when the model reviews a task's remaining steps, as values so the option
 * schema can check them and as a type for everything else.
 */
export const PIPELINE_REVIEW_POLICIES = ['always', 'on-failure', 'never'] as const;

/**
 * When the model reviews the remaining steps: after every step, after failed ones, or never.
 *
 * @inline
 */
export type PipelineReview = (typeof PIPELINE_REVIEW_POLICIES)[number];
