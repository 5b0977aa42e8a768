import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ModelRequestConfig } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { createScriptedModel, ROUTES } from '../../examples/getting-started/scripted-model';

// "Add Weft to an existing project" in docs/getting-started.md names the packages the page's
// agent needs from the reader's project; this holds the list to the example's imports.

const root = path.resolve(__dirname, '../..');
const EXAMPLE = path.join(root, 'examples/getting-started');

/** The packages a file imports by name (not `./` files, not `node:` modules). */
function packagesImported(file: string): Set<string> {
  const source = readFileSync(path.join(EXAMPLE, file), 'utf8');
  const names = new Set<string>();
  for (const match of source.matchAll(/^import\s[^;]*?from\s+'([^']+)'/gms)) {
    const specifier = match[1] as string;
    if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
    const parts = specifier.split('/');
    names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string));
  }
  return names;
}

function union(files: string[]): string[] {
  return [...new Set(files.flatMap((file) => [...packagesImported(file)]))].sort();
}

describe('Getting started: the packages an existing project installs', () => {
  it("are the example agent's imports, @weft/testing from main.ts, express and cors as optional peers of the core, and @weft/model-openai for the real model [claim:gs-existing-project-packages]", () => {
    expect(
      union(['assistant-plugin.ts', 'scripted-model.ts', 'agent.ts', 'main.ts', 'port.ts']),
    ).toEqual(['@weft/core', '@weft/testing', 'pino']);
    expect(packagesImported('main.ts')).toContain('@weft/testing');
    expect(union(['openai-model.ts', 'real-model.ts', 'main-real-model.ts'])).toEqual([
      '@weft/core',
      '@weft/model-openai',
      '@weft/testing',
    ]);
    const agent = readFileSync(path.join(EXAMPLE, 'agent.ts'), 'utf8');
    expect(agent).toMatch(/^import type \{ Logger \} from 'pino';$/m);
    const core = JSON.parse(
      readFileSync(path.join(root, 'packages/core/package.json'), 'utf8'),
    ) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
    };
    for (const name of ['express', 'cors']) {
      expect(core.dependencies).not.toHaveProperty(name);
      expect(core.peerDependencies).toHaveProperty(name);
      expect(core.peerDependenciesMeta[name]?.optional).toBe(true);
    }
  });
});

// "Choose a model": the scripted model plans the step of the first entry of ROUTES whose pattern
// matches the task's message, else assistant/reply; ROUTES is empty as the page ships it.
describe('Getting started: the scripted model picks a route', () => {
  async function planFor(message: string): Promise<unknown> {
    const [capability] = createScriptedModel().capabilities;
    const request = { purpose: 'plan', task: { id: 't', message } } as ModelRequestConfig;
    const { text } = (await capability?.run({ messages: [] }, request)) as { text: string };
    return JSON.parse(text);
  }

  it('plans the first matching route, else assistant/reply, from an empty ROUTES [claim:gs-routes]', async () => {
    expect(ROUTES).toEqual([]);
    expect(await planFor('What time is it?')).toEqual({
      steps: [{ pluginId: 'assistant', action: 'reply', reason: 'The user wrote.' }],
    });
    ROUTES.push(
      { pattern: /\bweather\b/i, pluginId: 'weather', action: 'today' },
      { pattern: /\btime\b/i, pluginId: 'clock', action: 'now' },
      { pattern: /\bit\b/i, pluginId: 'other', action: 'any' },
    );
    try {
      // Two entries match; the first of them wins.
      expect(await planFor('What time is it?')).toEqual({
        steps: [{ pluginId: 'clock', action: 'now', reason: 'A route matched.' }],
      });
      expect(await planFor('Hello')).toEqual({
        steps: [{ pluginId: 'assistant', action: 'reply', reason: 'The user wrote.' }],
      });
    } finally {
      ROUTES.length = 0;
    }
  });
});
