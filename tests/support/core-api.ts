/**
 * The public API of @weft/core: the names the site specification lists under "API reference
 * pages", plus the error model added since (`WeftError`, its options and its code union) and the
 * `spaceId` helper, keyed by the folder TypeDoc writes each kind of page to. The API reference unit test checks the
 * core exports exactly these; the browser tests check each has its page.
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
  functions: ['defineCapability', 'formatZodSchema', 'spaceId'],
  interfaces: [
    'AgentTask',
    'AnalyticsData',
    'AnalyticsTracker',
    'CapabilityDescriptor',
    'CapabilityTransformEntry',
    'Context',
    'ExecutionContext',
    'Executor',
    'GetObjectConfig',
    'ICapabilities',
    'Memory',
    'ModelCapability',
    'ModelRequestConfig',
    'PipelineGenerationContext',
    'PipelineModificationContext',
    'PluginResult',
    'QueryMemoryOptions',
    'ServerManagerConfig',
    'Space',
    'TemplateFunction',
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
    'PipelineModificationSchema',
    'PipelineSchema',
    'PipelineStepSchema',
    'TEXT_GENERATION_CAPABILITY',
  ],
};
