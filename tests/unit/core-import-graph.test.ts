/**
 * The core's imports point one way: the task model and the managers sit below the runtime and
 * never import a file that imports them back. The one circle allowed is the API's own: a plugin
 * and its triggers are handed the runtime, and the runtime holds the plugins (its config lists
 * them, its registry keeps them). It is three files: plugins/plugin.ts (Plugin, the trigger
 * types and PluginRegistry), the runtime and its config. The plugin checks and the server read
 * plugins and routes by shape, so they stay below it. A new file drawn into that circle, or a
 * second circle, fails here.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph } from '../../tooling/import-graph';

const coreSrc = path.resolve(__dirname, '../../packages/core/src');

/** The API's own circle; every file in it names Plugin or Runtime publicly. */
const allowedCircle = ['plugins/plugin.ts', 'runtime/config.ts', 'runtime/runtime.ts'];

describe('the import graph of packages/core/src', () => {
  const graph = importGraph(coreSrc);

  it('reads the whole core', () => {
    expect(graph.get('index.ts')).toContain('runtime/runtime.ts');
    expect(graph.size).toBeGreaterThan(20);
  });

  it('has no circle but the one between the runtime and its plugins', () => {
    expect(importCycles(graph)).toEqual([allowedCircle]);
  });

  it('keeps the task model on the ground floor', () => {
    // The task model may name leaf modules only: files that import nothing of the core.
    for (const target of graph.get('tasks/task.ts') ?? []) {
      expect({ target, imports: graph.get(target) }).toEqual({ target, imports: [] });
    }
  });

  it('keeps memory, analytics, models and the task runner out of the runtime circle', () => {
    const reachesRuntime = (start: string): boolean => {
      const seen = new Set<string>();
      const stack = [start];
      while (stack.length > 0) {
        const file = stack.pop()!;
        if (file === 'runtime/runtime.ts') return true;
        if (seen.has(file)) continue;
        seen.add(file);
        stack.push(...(graph.get(file) ?? []));
      }
      return false;
    };
    const below = [...graph.keys()].filter((file) =>
      /^(memory|analytics|models|tasks|pipeline|capabilities|prompts|scheduler|errors|util)\//.test(
        file,
      ),
    );
    expect(below.length).toBeGreaterThan(10);
    expect(below.filter(reachesRuntime)).toEqual([]);
  });
});
