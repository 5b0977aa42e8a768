/**
 * Lets several Weft runtimes share one PostgreSQL database and keep each space's tasks in
 * order across them.
 *
 * @packageDocumentation
 */
export { PostgresSpaceCoordinator } from './coordinator.js';
export type { CoordinatorLogger, PostgresSpaceCoordinatorOptions } from './options.js';
export {
  PostgresSpaceCoordinatorError,
  type PostgresSpaceCoordinatorErrorCode,
  type WeftCoordinatorErrorCode,
} from './errors.js';
