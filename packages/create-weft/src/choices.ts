/**
 * The text models a new project can start with.
 * @claim tsdoc-cw-model-choices
 */
export const MODEL_CHOICES = ['openai', 'ollama', 'scripted'] as const;
/** One of {@link MODEL_CHOICES}: the `--model` value. */
export type ModelChoice = (typeof MODEL_CHOICES)[number];

/**
 * Where a new project keeps its memories.
 * @claim tsdoc-cw-memory-choices
 */
export const MEMORY_CHOICES = ['sqlite', 'memory'] as const;
/** One of {@link MEMORY_CHOICES}: the `--memory` value. */
export type MemoryChoice = (typeof MEMORY_CHOICES)[number];

/**
 * What a non-interactive run picks: the choices that run anywhere with no key, no server and
 * no native module, so the project's tests and first start work at once.
 * @claim tsdoc-cw-default-model
 */
export const DEFAULT_MODEL: ModelChoice = 'scripted';
/**
 * The memory a non-interactive run picks, for the reasons {@link DEFAULT_MODEL} gives.
 * @claim tsdoc-cw-default-memory
 */
export const DEFAULT_MEMORY: MemoryChoice = 'memory';

/**
 * How each choice is described in prompts and in the project's README.
 * @claim tsdoc-cw-labels
 */
export const MODEL_LABELS: Record<ModelChoice, string> = {
  openai: 'OpenAI (or any OpenAI-compatible API), with an API key',
  ollama: 'Ollama on this machine, no key',
  scripted: 'Scripted stand-in, no key and no network',
};
/** How each memory choice is described in prompts and in the project's README. */
export const MEMORY_LABELS: Record<MemoryChoice, string> = {
  sqlite: 'SQLite file, kept across restarts',
  memory: 'In memory, lost on exit',
};

/** Whether `value` is one of {@link MODEL_CHOICES}. */
export function isModelChoice(value: string): value is ModelChoice {
  return (MODEL_CHOICES as readonly string[]).includes(value);
}

/** Whether `value` is one of {@link MEMORY_CHOICES}. */
export function isMemoryChoice(value: string): value is MemoryChoice {
  return (MEMORY_CHOICES as readonly string[]).includes(value);
}
