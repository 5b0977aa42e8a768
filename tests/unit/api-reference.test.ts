import { Application, LogLevel, ReflectionKind, type ProjectReflection } from 'typedoc';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_ENTRY_POINT, API_TSCONFIG } from '../../src/config/typedoc';

// The public API that the site specification lists under "API reference pages": nothing more,
// nothing less may be exported from the core's entry point.
const expected = {
  [ReflectionKind.Class]: [
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
  ],
  [ReflectionKind.Function]: ['defineCapability', 'formatZodSchema'],
  [ReflectionKind.Interface]: [
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
  ],
  [ReflectionKind.TypeAlias]: [
    'CapabilityAliasGroup',
    'CapabilityMap',
    'CorsOptions',
    'Pipeline',
    'PipelineModification',
    'PipelineStep',
    'Resolvable',
    'Trigger',
  ],
  [ReflectionKind.Variable]: [
    'PipelineModificationSchema',
    'PipelineSchema',
    'PipelineStepSchema',
    'TEXT_GENERATION_CAPABILITY',
  ],
} as const;

describe('the API reference of @weft/core', () => {
  let app: Application;
  let project: ProjectReflection | undefined;
  const messages: string[] = [];

  beforeAll(async () => {
    app = await Application.bootstrapWithPlugins({
      entryPoints: [API_ENTRY_POINT],
      tsconfig: API_TSCONFIG,
      excludePrivate: true,
      excludeInternal: true,
      disableSources: true,
      treatWarningsAsErrors: true,
      validation: { notExported: true, invalidLink: true, notDocumented: false },
      logLevel: 'Warn',
    });
    const log = app.logger.log.bind(app.logger);
    app.logger.log = (message, level) => {
      if (level >= LogLevel.Warn) messages.push(String(message));
      log(message, level);
    };
    project = await app.convert();
    if (project) app.validate(project);
  }, 120_000);

  it('converts and validates with no warning or error', () => {
    expect(project).toBeDefined();
    expect(messages).toEqual([]);
    expect(app.logger.hasWarnings()).toBe(false);
    expect(app.logger.hasErrors()).toBe(false);
  });

  it('exports exactly the names the specification lists', () => {
    for (const [kind, names] of Object.entries(expected)) {
      const actual = project!
        .getChildrenByKind(Number(kind) as ReflectionKind)
        .map((child) => child.name);
      expect(actual.sort()).toEqual([...names].sort());
    }
    expect(project!.children?.length).toBe(Object.values(expected).flat().length);
  });

  it('documents every export, with an example on every class and function', () => {
    for (const child of project!.children ?? []) {
      const comment = child.comment ?? child.signatures?.[0]?.comment;
      expect(comment?.summary.length, `${child.name} has no TSDoc summary`).toBeGreaterThan(0);
      if (child.kind === ReflectionKind.Class || child.kind === ReflectionKind.Function) {
        expect(comment?.getTag('@example'), `${child.name} has no @example`).toBeDefined();
      }
    }
  });
});
