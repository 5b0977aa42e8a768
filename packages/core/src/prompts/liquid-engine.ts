import type { Liquid } from 'liquidjs';

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

let engine: Liquid | undefined;
let loading: Promise<Liquid> | undefined;

/**
 * The liquid engine of every registry, once {@link loadLiquid} has made it. All registries use
 * the same options, and liquid keeps nothing between parses or renders (no template cache is
 * configured), so one engine serves them all.
 */
export function loadedLiquid(): Liquid | undefined {
  return engine;
}

/**
 * Loads liquidjs and makes the shared engine, once. The module is imported here, on the first
 * liquid template, and nowhere else: a runtime whose templates are all functions never loads
 * it, which spares a page its download and evaluation. A failed import is tried again by the
 * next call.
 */
export function loadLiquid(): Promise<Liquid> {
  loading ??= import('liquidjs').then(
    ({ Liquid: LiquidEngine }) =>
      (engine = new LiquidEngine({
        strictVariables: true,
        strictFilters: true,
        lenientIf: true,
        ownPropertyOnly: true,
        locale: SYSTEM_LOCALE,
      })),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
