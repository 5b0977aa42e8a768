/**
 * The public API of @weft/core: the names SITE-REQUIREMENTS.md lists under "API reference pages",
 * plus the error model added since (`WeftError`, its options and its code union), the
 * `spaceId` helper, the space coordinator's extension point (issue 22), what a model call knows
 * of its task (`ModelRequestTask`, issue 39), and of issue 41 the memory contract's input
 * checks, the runtime's configuration types (`RuntimeConfig`, `RuntimeOptions`) and function
 * templates (`defineTemplate`, `PromptTemplate`), and what a route handler is handed
 * (`RouteRequest`, `RouteResponse`, `HttpServer`; the HTTP server class itself, `ServerManager`,
 * and `serverOf` are exported by `@weft/core/node` and documented with the rest), keyed by the folder TypeDoc writes each kind of page to. The API reference unit test checks the core exports exactly these; the browser
 * tests check each has its page.
 */
export type ApiKind = 'classes' | 'functions' | 'interfaces' | 'type-aliases' | 'variables';

export const coreApiNames: Record<ApiKind, readonly string[]> = {
  classes: [
    'AnalyticsManager',
    'CapabilityRegistry',
    'MemoryManager',
    'MemoryProvider',
    'ModelManager',
    'ModelProvider',
    'Plugin',
    'PluginRegistry',
    'PromptRegistry',
    'Runtime',
    'Scheduler',
    'ServerManager',
    'WeftError',
  ],
  functions: [
    'checkClearSpace',
    'checkMemoryId',
    'checkMemoryPatch',
    'checkMemoryQuery',
    'checkNewMemory',
    'defineCapability',
    'defineTemplate',
    'formatZodSchema',
    'matchesSpacePattern',
    'serverOf',
    'memoryNotFound',
    'spaceId',
  ],
  interfaces: [
    'AgentTask',
    'AnalyticsData',
    'AnalyticsTracker',
    'CapabilityDescriptor',
    'CheckedMemory',
    'CheckedMemoryPatch',
    'CheckedMemoryQuery',
    'CapabilityTransformEntry',
    'Context',
    'ExecutionContext',
    'Executor',
    'GetObjectConfig',
    'HttpServer',
    'ICapabilities',
    'Memory',
    'ModelCapability',
    'ModelRequestConfig',
    'ModelRequestTask',
    'PipelineGenerationContext',
    'PipelineModificationContext',
    'PluginResult',
    'PromptTemplate',
    'QueryMemoryOptions',
    'RouteRequest',
    'RouteResponse',
    'RuntimeConfig',
    'RuntimeOptions',
    'ServerManagerConfig',
    'Space',
    'SpaceCoordinator',
    'SpaceCoordinatorHost',
    'SpaceGrant',
    'TaskArrival',
    'TemplateFunction',
    'TriggerEvent',
    'TriggerRoute',
    'TriggerStart',
    'WeftErrorOptions',
  ],
  'type-aliases': [
    'CapabilityAliasGroup',
    'CapabilityMap',
    'CorsOptions',
    'Pipeline',
    'PipelineModification',
    'PipelineStep',
    'Resolvable',
    'Trigger',
    'WeftErrorCode',
  ],
  variables: [
    'DEFAULT_MEMORY_QUERY_LIMIT',
    'MAX_MEMORY_JSON_DEPTH',
    'MAX_MEMORY_JSON_LENGTH',
    'MAX_MEMORY_KEY_LENGTH',
    'MAX_QUERY_SPACE_PATTERNS',
    'PipelineModificationSchema',
    'PipelineSchema',
    'PipelineStepSchema',
    'TEXT_GENERATION_CAPABILITY',
  ],
};

/**
 * How many exports of each kind SITE-REQUIREMENTS.md lists under "API reference pages": the
 * core may add exports, never drop below these.
 */
export const SPECIFIED_API_KIND_COUNTS: Record<ApiKind, number> = {
  classes: 12,
  functions: 2,
  interfaces: 22,
  'type-aliases': 8,
  variables: 4,
};
