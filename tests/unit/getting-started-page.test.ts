import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

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
