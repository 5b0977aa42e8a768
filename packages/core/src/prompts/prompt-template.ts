/**
 * A plugin's prompt template written as a function of its variables rather than as liquid
 * source: it renders in microseconds, the compiler checks each variable it reads, and a runtime
 * whose plugins have only such templates never loads liquid. Make one with
 * {@link defineTemplate}, which also declares the variables it needs, or write the function.
 */
export interface PromptTemplate {
  /**
   * Makes the template's text.
   *
   * @param variables - The values the caller passed.
   * @returns The rendered text.
   */
  (variables: Readonly<Record<string, unknown>>): string;
  /**
   * The variables the template reads: rendering without one of them (absent or `undefined`)
   * rejects with `WEFT_TEMPLATE_RENDER_FAILED` naming it, as a liquid template does. Without
   * this list the function is called with whatever was passed.
   * @claim tsdoc-prompt-template-variables
   */
  readonly variables?: readonly string[];
}

/**
 * Declares a template as a function of typed variables, for a plugin's `templates` or
 * {@link PromptRegistry.register}. The registry calls `render` only when every name of
 * `variables` was passed, so `render` reads them without checks; a missing one rejects with
 * `WEFT_TEMPLATE_RENDER_FAILED` naming it.
 *
 * @param variables - The names of the variables the template needs.
 * @param render - Makes the text from the variables.
 * @returns The template, to put in a plugin's `templates`.
 *
 * @example
 * ```ts
 * import { defineTemplate, PromptRegistry } from '@weft/core';
 *
 * const greeting = defineTemplate<{ name: string }>(['name'], ({ name }) => `Hello ${name}!`);
 * const prompts = new PromptRegistry();
 * prompts.register('greeter', 'hello', greeting);
 * console.log(await prompts.render('greeter/hello', { name: 'Ada' })); // Hello Ada!
 * ```
 * @claim tsdoc-define-template-checked
 */
export function defineTemplate<Variables extends object>(
  variables: readonly (keyof Variables & string)[],
  render: (variables: Variables) => string,
): PromptTemplate {
  // The registry checks `variables` before it calls `render`, which makes the cast hold.
  const template = (given: Readonly<Record<string, unknown>>): string =>
    render(given as unknown as Variables);
  return Object.assign(template, { variables: [...variables] });
}
