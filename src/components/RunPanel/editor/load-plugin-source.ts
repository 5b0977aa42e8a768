/**
 * Turns the TypeScript a reader typed in a Run panel's editor into the plugin class a run uses,
 * or into a problem that names what is wrong and where. Pure: no DOM, no React, so the unit tests
 * run it in Node on the example files themselves.
 */
import { transform } from 'sucrase';

/** A class whose instances a run registers as a plugin, with the arguments its example gives. */
export type PluginConstructor<Instance> = new (...args: never[]) => Instance;

/** Why a source cannot be run; `message` is what the panel shows and announces. */
export type SourceProblem = { message: string } & (
  | { kind: 'syntax'; line: number; column: number }
  | { kind: 'unknown-import'; specifier: string }
  | { kind: 'missing-export'; exportName: string }
  | { kind: 'not-a-plugin'; exportName: string }
  | { kind: 'evaluation'; thrown: string }
  | { kind: 'construction'; thrown: string }
);

export type LoadedSource<Instance> =
  { ok: true; plugin: PluginConstructor<Instance> } | { ok: false; problem: SourceProblem };

export interface LoadOptions<Instance> {
  /** The export the run takes, the same name as the example file's class. */
  exportName: string;
  /** What each specifier the source may import resolves to; any other is refused. */
  modules: Readonly<Record<string, unknown>>;
  /** The class the export must extend, such as `Plugin` from the `@weft/core` in `modules`. */
  base: abstract new (...args: never[]) => Instance;
  /**
   * What the example's run passes to the constructor (the heartbeat's interval); the check
   * constructs the class with them, so a constructor that rejects them fails here, by name.
   */
  constructorArgs?: readonly unknown[];
}

/** Thrown by the source's `require`, so it is told apart from the source's own errors. */
class UnknownImport extends Error {
  constructor(readonly specifier: string) {
    super(specifier);
  }
}

const describeThrown = (thrown: unknown): string =>
  thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);

/** Sucrase appends " (line:column)" to the parser's message and puts them on `loc`. */
function syntaxProblem(error: unknown): SourceProblem | undefined {
  if (!(error instanceof Error) || !('loc' in error)) return undefined;
  const { line, column } = error.loc as { line: number; column: number };
  const reason = error.message.replace(/ \(\d+:\d+\)$/, '');
  return {
    kind: 'syntax',
    line,
    column,
    message: `Line ${line}, column ${column}: ${reason}.`,
  };
}

/**
 * Transpiles `source` (TypeScript, ES modules) to CommonJS with sucrase, evaluates it with a
 * `require` that knows only `options.modules`, and checks that the export builds an instance of
 * `options.base`. Types are stripped, not checked.
 *
 * @returns The class, or the first problem found: a syntax error with its line and column, an
 * import of another module, a missing export, an export that is no such class, or what the code
 * threw while it was evaluated or constructed.
 */
export function loadPluginSource<Instance>(
  source: string,
  options: LoadOptions<Instance>,
): LoadedSource<Instance> {
  let code: string;
  try {
    // ES syntax stays as written: every browser the site supports runs it, and class fields keep
    // the define semantics the examples are compiled with (target ES2022). Unused imports are
    // kept, so an import the page cannot serve is refused even before the code uses it.
    code = transform(source, {
      transforms: ['typescript', 'imports'],
      disableESTransforms: true,
      keepUnusedImports: true,
    }).code;
  } catch (error) {
    const problem = syntaxProblem(error);
    if (problem) return { ok: false, problem };
    throw error;
  }

  const allowed = Object.keys(options.modules)
    .map((name) => `"${name}"`)
    .join(', ');
  const require = (specifier: string): unknown => {
    if (Object.hasOwn(options.modules, specifier)) return options.modules[specifier];
    throw new UnknownImport(specifier);
  };
  const module = { exports: {} as Record<string, unknown> };
  try {
    // The reader's own code, run in their own page: this is the feature, not an injection.
    new Function('exports', 'require', 'module', code)(module.exports, require, module);
  } catch (error) {
    if (error instanceof UnknownImport) {
      return fail({
        kind: 'unknown-import',
        specifier: error.specifier,
        message: `The code imports "${error.specifier}"; in the page it can import only ${allowed}.`,
      });
    }
    return fail({
      kind: 'evaluation',
      thrown: describeThrown(error),
      message: `The code threw while it was loaded: ${describeThrown(error)}`,
    });
  }

  const { exportName } = options;
  const exported = module.exports[exportName];
  if (exported === undefined) {
    return fail({
      kind: 'missing-export',
      exportName,
      message: `The code exports no "${exportName}": export the plugin's class under that name (export class ${exportName} …).`,
    });
  }
  if (typeof exported !== 'function') {
    return fail({ kind: 'not-a-plugin', exportName, message: notAPlugin(exportName) });
  }
  const args = options.constructorArgs ?? [];
  let instance: unknown;
  try {
    instance = new (exported as new (...given: unknown[]) => unknown)(...args);
  } catch (error) {
    const shown = args.map((arg) => JSON.stringify(arg) ?? String(arg)).join(', ');
    return fail({
      kind: 'construction',
      thrown: describeThrown(error),
      message: `new ${exportName}(${shown}) threw: ${describeThrown(error)}`,
    });
  }
  if (!(instance instanceof options.base)) {
    return fail({ kind: 'not-a-plugin', exportName, message: notAPlugin(exportName) });
  }
  return { ok: true, plugin: exported as PluginConstructor<Instance> };

  function notAPlugin(name: string): string {
    // Not `options.base.name`: the production build shortens class names.
    return `"${name}" is not a class that extends Plugin: declare it as export class ${name} extends Plugin.`;
  }
}

const fail = <Instance>(problem: SourceProblem): LoadedSource<Instance> => ({ ok: false, problem });
