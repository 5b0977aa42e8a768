/**
 * A durable Weft memory provider that keeps memories in a local SQLite file.
 *
 * @packageDocumentation
 */
export { SqliteMemoryProvider } from './provider.js';
export type { SqliteMemoryProviderOptions } from './options.js';
export {
  SqliteMemoryProviderError,
  type SqliteMemoryProviderErrorCode,
  type WeftSqliteErrorCode,
} from './errors.js';
