/**
 * How a package describes the error codes it raises. Each package, the core included, keeps one
 * registry in its `src/errors.ts`, named for its codes' prefix (`SQLITE_ERRORS`; `CORE_ERRORS`); the
 * code union's TSDoc, the errors reference page and the `docsUrl` of every error come from it,
 * so a code is explained in one place.
 */

/** What the errors reference says about one code. Text is Markdown, read on the errors page. */
export interface ErrorCodeEntry {
  /** One line for the code union's TSDoc: when the code is raised, without links. */
  readonly summary: string;
  /**
   * The HTTP status a client receives when the error answers a request (one or several, such
   * as `[400, 413]`); absent for errors that never reach a client as such.
   */
  readonly status?: number | readonly number[];
  /** What raises it: the classes, methods or parts of the runtime, such as `` `Runtime.init` ``. */
  readonly raisedBy: string;
  /**
   * Every place in the sources that makes an error with this code, and no other, as
   * `<package folder>/src/<file>#<function>` (`Class.method` for a method), such as
   * `memory-sqlite/src/provider.ts#SqliteMemoryProvider.init`. A unit test holds it to the
   * sources, so a new raiser is listed where the code is explained.
   */
  readonly raisers: readonly string[];
  /** Why it happens. */
  readonly cause: string;
  /** How to fix it. */
  readonly fix: string;
}

/**
 * The error codes of one package.
 *
 * @typeParam Code - The package's code union.
 */
export interface ErrorRegistry<Code extends string = string> {
  /** The npm name of the package, such as `@weft/memory-sqlite`. */
  readonly packageName: string;
  /** A paragraph shown on the errors page before the package's codes, when it needs one. */
  readonly intro?: string;
  /** Every code the package raises, in the order the page lists them. */
  readonly codes: { readonly [C in Code]: ErrorCodeEntry };
}

/**
 * The errors reference page of the documentation site. The site's address is defined in the
 * docs model (`libs/docs-model/site.ts`); a unit test holds this copy to it (packages cannot
 * import the docs model), and to the page's route.
 */
export const ERRORS_REFERENCE_URL = 'https://weft-ai.github.io/docs/reference/errors/';

/**
 * The address of a code's section on the errors page: the page's heading for the code, whose
 * anchor is the code in lower case.
 *
 * @param code - An error code, such as `WEFT_QUEUE_FULL`.
 * @returns Such as `https://weft-ai.github.io/docs/reference/errors/#weft_queue_full`.
 */
export function errorDocsUrl(code: string): string {
  return `${ERRORS_REFERENCE_URL}#${code.toLowerCase()}`;
}
