import * as z from 'zod';

/** Schema of one pipeline step: which plugin's executor to run, and why. */
export const PipelineStepSchema = z.object({
  pluginId: z.string().min(1).describe('Id of the plugin that owns the executor.'),
  action: z.string().min(1).describe("The executor's action name."),
  reason: z.string().optional().describe('Why this step is needed, in one sentence.'),
});

/** Schema of a pipeline: the ordered steps the model chose for a task. */
export const PipelineSchema = z.object({
  steps: z
    .array(PipelineStepSchema)
    .describe('Steps to run in order; empty when nothing needs doing.'),
});

/**
 * Schema of the model's review after a step: keep the remaining steps, replace them, or stop.
 */
export const PipelineModificationSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('continue') }),
  z.object({
    type: z.literal('replace'),
    steps: z.array(PipelineStepSchema).describe('The new remaining steps, replacing the old ones.'),
    reason: z.string().optional(),
  }),
  z.object({
    type: z.literal('stop'),
    reason: z.string().optional(),
  }),
]);

/** One step of a {@link Pipeline}. */
export type PipelineStep = z.infer<typeof PipelineStepSchema>;

/** The plan for a task: `{ steps }`, run in order by the runtime. */
export type Pipeline = z.infer<typeof PipelineSchema>;

/** The model's decision after a step; see {@link PipelineModificationSchema}. */
export type PipelineModification = z.infer<typeof PipelineModificationSchema>;
