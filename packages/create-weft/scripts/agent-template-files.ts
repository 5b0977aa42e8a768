/**
 * Which files of the generated project are copies of the getting-started example: read by
 * scripts/generate-agent-template.ts (beside this file), which writes the copies, and by the test that fails when
 * one differs (packages/create-weft/test/agent-template.test.ts).
 */

/** The example's folder and the template's, relative to the repository root. */
export const EXAMPLE_DIR = 'examples/getting-started';
export const TEMPLATE_DIR = 'packages/create-weft/templates/base/src';

/**
 * The files both hold. The entry point and the model and memory modules differ on purpose:
 * the generated project reads them from its environment and from the choices made at creation.
 */
export const SHARED_FILES = [
  'agent.ts',
  'assistant-plugin.ts',
  'port.ts',
  'scripted-model.ts',
] as const;
