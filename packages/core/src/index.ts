/**
 * `@weft/core`: everything but the HTTP server, which `@weft/core/node` exports. The API
 * reference documents both from `api-reference.ts`.
 */
export { Runtime } from './runtime/runtime.js';
export type { RuntimeConfig, RuntimeOptions } from './runtime/config.js';
export { WeftError, type WeftErrorOptions } from './errors/weft-error.js';
export type { WeftErrorCode } from './errors.js';
export {
  Plugin,
  PluginRegistry,
  type Trigger,
  type TriggerRoute,
  type TriggerStart,
} from './plugins/plugin.js';
export type { AgentTask, Context, PluginResult } from './tasks/task.js';
export type { ExecutionContext, Executor } from './plugins/executor.js';
export {
  PipelineModificationSchema,
  PipelineSchema,
  PipelineStepSchema,
  type Pipeline,
  type PipelineModification,
  type PipelineStep,
} from './pipeline/schemas.js';
export type {
  PipelineGenerationContext,
  PipelineModificationContext,
} from './pipeline/contexts.js';
export {
  defineCapability,
  TEXT_GENERATION_CAPABILITY,
  type CapabilityAliasGroup,
  type CapabilityDescriptor,
  type CapabilityMap,
  type CapabilityTransformEntry,
  type ICapabilities,
} from './capabilities/capability.js';
export { CapabilityRegistry } from './capabilities/capability-registry.js';
export {
  ModelProvider,
  type ModelCapability,
  type ModelRequestConfig,
  type ModelRequestTask,
  type Resolvable,
} from './models/model-provider.js';
export { ModelManager } from './models/model-manager.js';
export type { GetObjectConfig } from './models/get-object.js';
export { formatZodSchema } from './models/format-zod-schema.js';
export {
  MemoryProvider,
  type Memory,
  type QueryMemoryOptions,
  type Space,
} from './memory/memory-provider.js';
export { MemoryManager } from './memory/memory-manager.js';
export {
  checkClearSpace,
  checkMemoryId,
  checkMemoryPatch,
  checkMemoryQuery,
  checkNewMemory,
  DEFAULT_MEMORY_QUERY_LIMIT,
  matchesSpacePattern,
  MAX_MEMORY_JSON_DEPTH,
  MAX_MEMORY_JSON_LENGTH,
  MAX_MEMORY_KEY_LENGTH,
  MAX_QUERY_SPACE_PATTERNS,
  memoryNotFound,
  type CheckedMemory,
  type CheckedMemoryPatch,
  type CheckedMemoryQuery,
} from './memory/memory-input.js';
export { spaceId } from './memory/space-id.js';
export { PromptRegistry, type TemplateFunction } from './prompts/prompt-registry.js';
export { defineTemplate, type PromptTemplate } from './prompts/prompt-template.js';
export { Scheduler } from './scheduler/scheduler.js';
export type {
  SpaceCoordinator,
  SpaceCoordinatorHost,
  SpaceGrant,
  TaskArrival,
} from './scheduler/space-coordinator.js';
export type { TriggerEvent } from './runtime/arrivals.js';
// The HTTP server itself (express) is `@weft/core/node`'s; the runtime loads it for routes.
export type { CorsOptions, ServerManagerConfig } from './server/server-config.js';
export type { HttpServer, RouteRequest, RouteResponse } from './server/route.js';
export {
  AnalyticsManager,
  type AnalyticsData,
  type AnalyticsTracker,
} from './analytics/analytics-manager.js';
