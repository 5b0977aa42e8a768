/**
 * Weft core: the runtime that assembles an AI agent from plugins, model providers and a memory
 * provider. {@link ServerManager} and {@link serverOf} are imported from `@weft/core/node`; the
 * rest from `@weft/core`.
 *
 * @packageDocumentation
 */
// The API reference's one entry point, so that its pages keep one flat list of names; no package
// export points here.
export * from './index.js';
export { ServerManager, serverOf } from './node.js';
