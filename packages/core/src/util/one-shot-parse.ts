/**
 * The zod parse context for a schema parsed once or a few times in a process, such as the
 * runtime's options. An object schema's first parse otherwise compiles a fast parser for it
 * with `new Function`; building it costs more than one parse saves (1-30 ms for the options
 * schema in a fresh Node.js process, and a page pays it on every first run). Schemas parsed on
 * every call, such as the answers of a model, keep the compiled parser.
 */
export const ONE_SHOT = { jitless: true } as const;
