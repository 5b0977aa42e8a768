/**
 * A Weft memory provider that keeps memories in PostgreSQL, shared by every instance of an agent.
 *
 * @packageDocumentation
 */
export { PostgresMemoryProvider } from './provider.js';
export type { PostgresMemoryProviderOptions, PostgresPoolOptions } from './options.js';
export {
  PostgresMemoryProviderError,
  type PostgresMemoryProviderErrorCode,
  type WeftPostgresErrorCode,
} from './errors.js';
