import { readTemplateFiles } from '#platform';
import type { Liquid } from 'liquidjs';
import { describeError, WeftError } from '../errors/weft-error.js';
import { coreTemplates } from './core-templates.js';
import {
  LIQUID_RENDER_LIMIT_MS,
  loadedLiquid,
  loadLiquid,
  renderLiquidSync,
} from './liquid-engine.js';
import type { PromptTemplate } from './prompt-template.js';

/** A compiled prompt template. Obtain one with {@link PromptRegistry.get}. */
export interface TemplateFunction {
  /**
   * Renders the template.
   *
   * @param variables - Values the template refers to; referring to a missing one is an error.
   * @returns The rendered text.
   */
  (variables?: Record<string, unknown>): Promise<string>;
  /** The template's full name, `namespace/name`. */
  readonly templateName: string;
}

const NAME_PATTERN = /^[a-z0-9][a-z0-9-_.]*$/i;

/**
 * Holds the templates that prompts are made from, namespaced by owner: the core's own live
 * under `core/`, a plugin's under its id (`weather/forecast`). A plugin's template is liquid
 * source or a function of its variables ({@link PromptTemplate}); the core's are functions.
 * Liquid is compiled once: when registered once liquidjs is loaded, as a runtime loads it before
 * it registers its plugins' templates, so a syntax error surfaces at start-up rather than in the
 * middle of a task; a liquid template registered before that is compiled on its first render.
 * liquidjs itself is loaded only for the first liquid template, so a runtime whose templates are
 * all functions never loads it. Rendering is strict: a variable the
 * template uses (or a function template declares) but the caller did not pass is an error that
 * names it.
 *
 * @example
 * ```ts
 * import { PromptRegistry } from '@weft/core';
 *
 * const prompts = new PromptRegistry();
 * prompts.register('greeter', 'hello', 'Hello {{ name }}!');
 * const text = await prompts.render('greeter/hello', { name: 'Ada' });
 * console.log(text); // Hello Ada!
 * ```
 * @claim tsdoc-prompts-liquid-on-demand
 */
export class PromptRegistry {
  /** How to render each template, by full name. */
  private readonly templates = new Map<string, Render>();

  /**
   * Compiles and registers a template.
   *
   * A liquid source is parsed here when liquidjs is loaded, as it is once a runtime with a liquid
   * template has been built or {@link PromptRegistry.loadDirectory} has run; otherwise it is
   * parsed on its first render, which then rejects with `WEFT_TEMPLATE_INVALID` if it does not
   * parse, as liquidjs is loaded asynchronously. When liquidjs cannot be imported, that render
   * rejects with `WEFT_TEMPLATE_RENDER_FAILED` and the next one tries the import again.
   *
   * @param namespace - The owner: `core` or a plugin id.
   * @param name - The template's name within the namespace, such as `pipeline-generation`.
   * @param source - Liquid source text, or a function of the variables ({@link PromptTemplate}).
   * @throws {@link WeftError} `WEFT_TEMPLATE_INVALID` when a name is invalid, the source is
   * neither text nor a function, or the source does not parse (a `render`, `include` or `layout`
   * tag counts as such: templates cannot read files); `WEFT_DUPLICATE` when the template exists.
   * @claim tsdoc-prompts-register
   * @claim tsdoc-prompts-register-deferred
   */
  register(namespace: string, name: string, source: string | PromptTemplate): void {
    for (const [label, value] of [
      ['namespace', namespace],
      ['name', name],
    ] as const) {
      if (!NAME_PATTERN.test(value)) {
        throw new WeftError(
          'WEFT_TEMPLATE_INVALID',
          `PromptRegistry: invalid template ${label} "${value}"; start with a letter or digit, then use letters, digits, '-', '_' or '.'.`,
        );
      }
    }
    const fullName = `${namespace}/${name}`;
    this.refuseDuplicate(fullName);
    if (typeof source === 'function') {
      this.templates.set(fullName, checkedRender(source.variables ?? [], source));
      return;
    }
    if (typeof source !== 'string') {
      throw new WeftError(
        'WEFT_TEMPLATE_INVALID',
        `PromptRegistry: template "${fullName}" is neither liquid source text nor a function of its variables.`,
      );
    }
    const engine = loadedLiquid();
    if (engine) {
      this.templates.set(fullName, liquidRender(engine, fullName, source));
      return;
    }
    let compiled: Promise<Render> | undefined;
    this.templates.set(fullName, async (variables) => {
      // A failed import of liquidjs is tried again on the next render; a parse error stays.
      compiled ??= loadLiquid().then(
        (loaded) => liquidRender(loaded, fullName, source),
        (error: unknown) => {
          compiled = undefined;
          throw error;
        },
      );
      return (await compiled)(variables);
    });
  }

  /**
   * Registers the core's templates under `core/` (the runtime does, before any plugin's); see
   * {@link coreTemplates}. They are functions, not liquid, and render with the same contract: a
   * variable one reads but the caller did not pass is an error that names it.
   *
   * @throws {@link WeftError} `WEFT_DUPLICATE` when a `core/` template of the same name exists.
   * @internal
   */
  registerCoreTemplates(): void {
    for (const [name, { variables, render }] of Object.entries(coreTemplates)) {
      const fullName = `core/${name}`;
      this.refuseDuplicate(fullName);
      this.templates.set(fullName, checkedRender(variables, render));
    }
  }

  private refuseDuplicate(fullName: string): void {
    if (this.templates.has(fullName)) {
      throw new WeftError(
        'WEFT_DUPLICATE',
        `PromptRegistry: template "${fullName}" is already registered.`,
      );
    }
  }

  /**
   * Registers every `*.liquid` file of a directory under a namespace (hidden files, whose name
   * starts with `.`, are skipped); the file name without its extension becomes the template
   * name. Every file is checked before any is registered, so when one fails none is.
   *
   * @param namespace - The owner: `core` or a plugin id.
   * @param directory - Path of the directory to read (not recursive).
   * @returns The full names registered, sorted.
   * @throws {@link WeftError} `WEFT_TEMPLATE_INVALID` when the directory or one of its `.liquid`
   * files cannot be read (a broken symbolic link, say) or is not a regular file (a named pipe,
   * which reading could wait on forever), a file's name is not a valid template
   * name or a template does not parse; `WEFT_DUPLICATE` when a
   * template of that name exists; in a browser, which has no files, `WEFT_UNSUPPORTED_PLATFORM`.
   */
  async loadDirectory(namespace: string, directory: string): Promise<string[]> {
    let files: { name: string; source: string }[];
    try {
      files = await readTemplateFiles(directory);
    } catch (error) {
      if (WeftError.is(error)) throw error;
      throw new WeftError(
        'WEFT_TEMPLATE_INVALID',
        `PromptRegistry: cannot read templates of "${namespace}" from ${directory}: ${describeError(error)}`,
        { cause: error },
      );
    }
    // Loaded first, so that a file that does not parse is named here rather than on render.
    if (files.length > 0) await loadLiquid();
    // Compiled in a registry aside, so that a directory with one bad file registers none of them
    // and can be loaded again once it is fixed.
    const staged = new PromptRegistry();
    for (const { name, source } of files) staged.register(namespace, name, source);
    const names = staged.list();
    for (const fullName of names) this.refuseDuplicate(fullName);
    for (const [fullName, render] of staged.templates) this.templates.set(fullName, render);
    return names;
  }

  /**
   * Tells whether a template is registered.
   *
   * @param fullName - `namespace/name`.
   * @returns `true` when registered.
   */
  has(fullName: string): boolean {
    return this.templates.has(fullName);
  }

  /**
   * Lists the registered templates.
   *
   * @returns The full names of every registered template, sorted.
   */
  list(): string[] {
    return [...this.templates.keys()].sort();
  }

  /**
   * Returns a render function for a template.
   *
   * @param fullName - `namespace/name`.
   * @returns The template as a {@link TemplateFunction}.
   * @throws {@link WeftError} `WEFT_TEMPLATE_NOT_FOUND`, listing the registered names, when no
   * such template is registered. The render function rejects with
   * `WEFT_TEMPLATE_RENDER_FAILED` when the template refers to a variable that was not passed, and
   * with `WEFT_TEMPLATE_INVALID` when a liquid template registered before liquidjs was loaded
   * does not parse (see {@link PromptRegistry.register}).
   * @claim tsdoc-prompts-get
   * @claim tsdoc-prompts-render
   */
  get(fullName: string): TemplateFunction {
    const template = this.templates.get(fullName);
    if (!template) {
      const known = this.list().join(', ') || 'none';
      throw new WeftError(
        'WEFT_TEMPLATE_NOT_FOUND',
        `PromptRegistry: no template named "${fullName}"; registered templates: ${known}.`,
      );
    }
    const render = async (variables: Record<string, unknown> = {}): Promise<string> => {
      try {
        return await template(variables);
      } catch (error) {
        // A liquid source parsed on its first render keeps the code of a bad template.
        if (WeftError.is(error) && error.code === 'WEFT_TEMPLATE_INVALID') throw error;
        throw new WeftError(
          'WEFT_TEMPLATE_RENDER_FAILED',
          `PromptRegistry: rendering "${fullName}" failed: ${describeError(error)}`,
          { cause: error },
        );
      }
    };
    return Object.assign(render, { templateName: fullName });
  }

  /**
   * Renders a template.
   *
   * @param fullName - `namespace/name`.
   * @param variables - Values the template refers to.
   * @returns The rendered text.
   * @throws {@link WeftError} `WEFT_TEMPLATE_NOT_FOUND` when the template is missing,
   * `WEFT_TEMPLATE_RENDER_FAILED` when it refers to a variable that was not passed, or
   * `WEFT_TEMPLATE_INVALID` when a liquid template registered before liquidjs was loaded does not
   * parse.
   * @claim tsdoc-prompts-render-deferred-invalid
   */
  async render(fullName: string, variables: Record<string, unknown> = {}): Promise<string> {
    return this.get(fullName)(variables);
  }
}

/** Renders a template from its variables. */
type Render = (variables: Record<string, unknown>) => string | Promise<string>;

/**
 * Whether a declared variable was not passed: it is `undefined`, or it is only what every object
 * inherits from `Object.prototype` (a variable named `toString` or `constructor` that the caller
 * left out would otherwise reach the function as Object's own method).
 */
function notPassed(given: Readonly<Record<string, unknown>>, variable: string): boolean {
  const value = given[variable];
  if (value === undefined) return true;
  if (Object.hasOwn(given, variable)) return false;
  // Reading `__proto__` gives the object's prototype, which no caller passed as a value.
  if (variable === '__proto__') return true;
  return value === (Object.prototype as unknown as Record<string, unknown>)[variable];
}

/**
 * Renders a function template, after checking that every variable it declares was passed: the
 * same contract as liquid's strict variables, with the same words in the error.
 */
function checkedRender(
  variables: readonly string[],
  render: (variables: Readonly<Record<string, unknown>>) => string,
): Render {
  return (given) => {
    const missing = variables.find((variable) => notPassed(given, variable));
    if (missing !== undefined) throw new Error(`undefined variable: ${missing}`);
    const text: unknown = render(given);
    if (typeof text !== 'string') throw new Error(`the function returned ${typeof text}, not text`);
    return text;
  };
}

/**
 * Parses a liquid source, turning a syntax error into a {@link WeftError} that names the
 * template, and returns how to render it. Nothing here is asynchronous (no custom tags or
 * filters), and liquid's synchronous renderer is several times cheaper than stepping its
 * generators through promises.
 */
function liquidRender(engine: Liquid, fullName: string, source: string): Render {
  let parsed: ReturnType<Liquid['parse']>;
  try {
    parsed = engine.parse(source, fullName);
  } catch (error) {
    throw new WeftError(
      'WEFT_TEMPLATE_INVALID',
      `PromptRegistry: template "${fullName}" does not parse: ${describeError(error)}`,
      { cause: error },
    );
  }
  return (variables) => {
    const started = performance.now();
    const text = renderLiquidSync(engine, parsed, variables) as string;
    // liquidjs checks the time before each step, so a last step that runs long (a filter such
    // as `sort` over a list of millions of items passed in) would end past the limit unnoticed.
    if (performance.now() - started > LIQUID_RENDER_LIMIT_MS) {
      throw new Error(`template render limit exceeded after its last step`);
    }
    return text;
  };
}
