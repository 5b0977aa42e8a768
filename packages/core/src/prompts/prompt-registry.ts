import { readTemplateFiles } from '#platform';
import { Liquid, type Template } from 'liquidjs';
import { describeError, WeftError } from '../errors/weft-error.js';
import { coreTemplates } from './core-templates.js';

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
 * The system's locale, for the names of months and days that liquid's `date` filter writes, as
 * an empty list of locales: `Intl.DateTimeFormat([])` uses the default locale. Without a locale
 * liquid resolves the default one when the engine is made, and that first `Intl.DateTimeFormat`
 * loads the date data: 25-35 ms in Node.js and 50-60 ms in a browser at a 4x CPU slowdown, paid
 * by the first `Runtime.init` of a process or page whose plugins have templates, although few
 * templates format a date. Given the list, liquid passes it to `Intl.DateTimeFormat` only when a
 * template formats a date. The cast: liquid types the option as a string; it only hands it on.
 */
const SYSTEM_LOCALE = [] as unknown as string;

let sharedLiquid: Liquid | undefined;

/**
 * The liquid engine of every registry: they all use the same options, and liquid keeps nothing
 * between parses or renders (no template cache is configured), so one engine serves them all. It
 * is made when the first liquid template is registered: a runtime whose plugins have none never
 * makes it.
 */
function liquid(): Liquid {
  sharedLiquid ??= new Liquid({
    strictVariables: true,
    strictFilters: true,
    lenientIf: true,
    ownPropertyOnly: true,
    locale: SYSTEM_LOCALE,
  });
  return sharedLiquid;
}

/**
 * Holds the templates that prompts are made from, namespaced by owner: the core's own live
 * under `core/`, a plugin's under its id (`weather/forecast`). A plugin's templates are liquid,
 * compiled once, when registered, so a syntax error surfaces at start-up rather than in the
 * middle of a task; the core's are functions of their variables. Rendering is strict: a
 * variable the template uses but the caller did not pass is an error that names it.
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
 */
export class PromptRegistry {
  /** How to render each template, by full name. */
  private readonly templates = new Map<string, Render>();

  /**
   * Compiles and registers a template.
   *
   * @param namespace - The owner: `core` or a plugin id.
   * @param name - The template's name within the namespace, such as `pipeline-generation`.
   * @param source - Liquid source text.
   * @throws {@link WeftError} `WEFT_TEMPLATE_INVALID` when a name is invalid or the source does
   * not parse, `WEFT_DUPLICATE` when the template exists.
   */
  register(namespace: string, name: string, source: string): void {
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
    const parsed = parseTemplate(fullName, () => liquid().parse(source, fullName));
    // Nothing here is asynchronous (no custom tags or filters), and liquid's synchronous
    // renderer is several times cheaper than stepping its generators through promises.
    this.templates.set(fullName, (variables) => liquid().renderSync(parsed, variables));
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
      this.templates.set(fullName, (given) => {
        const missing = variables.find((variable) => given[variable] === undefined);
        if (missing !== undefined) throw new Error(`undefined variable: ${missing}`);
        return render(given);
      });
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
   * Registers every `*.liquid` file of a directory under a namespace; the file name without
   * its extension becomes the template name.
   *
   * @param namespace - The owner: `core` or a plugin id.
   * @param directory - Path of the directory to read (not recursive).
   * @returns The full names registered, sorted.
   * @throws {@link WeftError} `WEFT_TEMPLATE_INVALID` when the directory cannot be read or a
   * template does not parse; `WEFT_DUPLICATE` when a template of that name exists; in a
   * browser, which has no files, `WEFT_UNSUPPORTED_PLATFORM`.
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
    const names: string[] = [];
    for (const { name, source } of files) {
      this.register(namespace, name, source);
      names.push(`${namespace}/${name}`);
    }
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
   * `WEFT_TEMPLATE_RENDER_FAILED` when the template refers to a variable that was not passed.
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
        return template(variables);
      } catch (error) {
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
   * @throws {@link WeftError} `WEFT_TEMPLATE_NOT_FOUND` when the template is missing, or
   * `WEFT_TEMPLATE_RENDER_FAILED` when it refers to a variable that was not passed.
   */
  async render(fullName: string, variables: Record<string, unknown> = {}): Promise<string> {
    return this.get(fullName)(variables);
  }
}

/** Renders a template from its variables. */
type Render = (variables: Record<string, unknown>) => string;

/** Parses a template, turning a syntax error into a {@link WeftError} that names the template. */
function parseTemplate(fullName: string, parse: () => Template[]): Template[] {
  try {
    return parse();
  } catch (error) {
    throw new WeftError(
      'WEFT_TEMPLATE_INVALID',
      `PromptRegistry: template "${fullName}" does not parse: ${describeError(error)}`,
      { cause: error },
    );
  }
}
