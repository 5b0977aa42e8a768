/**
 * Helpers the first-party Weft packages share with the core, published as `@weft/core/internal`
 * so each fact lives in one place. Not part of the public API: names here may change in any
 * release, and the documentation does not list them.
 *
 * @packageDocumentation
 */
export { describeError } from './errors/weft-error.js';
export { errorDocsUrl, type ErrorCodeEntry, type ErrorRegistry } from './errors/error-registry.js';
export { ALLOWED_HOST_RULE, isAllowedHostEntry } from './server/allowed-host-entry.js';
export { hostChecker, hostnameOf, type AllowedHosts } from './server/allowed-hosts.js';
export {
  ABSOLUTE_FORM_WITHOUT_HOST,
  absoluteFormAuthority,
  namesHostOnly,
} from './server/request-target.js';
export { clientErrorRefusal } from './server/client-errors.js';
export { weftRetryAfter } from './server/error-answer.js';
export { protocolRefusal } from './server/protocol-refusal.js';
export { normaliseOrigin, type AllowedOrigins } from './server/allowed-origins.js';
export { unstorableText } from './memory/memory-input.js';
export { jsonOf, NO_JSON_FORM } from './util/json-text.js';
export { errorLogFields, type ErrorLogFields } from './util/logger.js';
export {
  postgresConnectionStringProblem,
  postgresServerAddress,
  postgresUrl,
  type PostgresDefaults,
  type PostgresServerAddress,
} from './util/postgres-address.js';
export { randomId } from './util/random-id.js';
export { MAX_TIMER_MS, TIMER_LIMIT_RULE } from './util/timer-limit.js';
export {
  bigIntProblem,
  circularReferenceProblem,
  JsonWalk,
  shownJsonPath,
  type JsonVisit,
} from './util/json-walk.js';
