/**
 * How many blocks got hover types in this build and the time spent reading their types, so a
 * slow build can be traced to this step (printed at the end of the build by
 * src/plugins/type-hovers-report). Kept on the global object: Docusaurus loads the site config
 * (which imports the rehype plugin) and the local plugins through separate module loaders, so
 * each gets its own copy of this module.
 */
interface Totals {
  blocks: number;
  milliseconds: number;
}

const KEY = Symbol.for('weft.type-hovers.totals');

function totals(): Totals {
  const holder = globalThis as typeof globalThis & { [KEY]?: Totals };
  holder[KEY] ??= { blocks: 0, milliseconds: 0 };
  return holder[KEY];
}

export function recordBlock(milliseconds: number): void {
  const current = totals();
  current.blocks += 1;
  current.milliseconds += milliseconds;
}

export function typeHoverTotals(): Readonly<Totals> {
  return { ...totals() };
}
