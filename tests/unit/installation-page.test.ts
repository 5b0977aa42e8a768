import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { formatZodSchema } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { renderProject } from '../../packages/create-weft/src/templates';

// Guards docs/installation.md, "What your project installs itself".

const root = path.resolve(__dirname, '../..');

async function coreDependencies(): Promise<Record<string, string>> {
  const manifest = JSON.parse(
    await readFile(path.join(root, 'packages/core/package.json'), 'utf8'),
  ) as { dependencies: Record<string, string> };
  return manifest.dependencies;
}

/** The install command the page's table gives for a package, such as `npm install zod@^4.1`. */
async function commandFor(name: string): Promise<string> {
  const page = await readFile(path.join(root, 'docs/installation.md'), 'utf8');
  const row = page.split('\n').find((line) => line.startsWith(`| \`${name}\``));
  const command = /`(npm install [^`]+)`\s*\|$/.exec(row ?? '')?.[1];
  if (!command) throw new Error(`docs/installation.md: no install command for ${name}`);
  return command;
}

const major = (range: string) => /(\d+)\./.exec(range)?.[1];

describe('what a project installs itself', () => {
  it.each(['zod', 'pino'])('installs %s in the major @weft/core depends on', async (name) => {
    const command = await commandFor(name);
    const range = new RegExp(`${name}@(\\S+)$`).exec(command)?.[1] ?? '';
    const core = (await coreDependencies())[name] ?? '';
    expect(major(range)).toBe(major(core));
  });

  it('takes zod 4 schemas and refuses one from zod 3', () => {
    expect(formatZodSchema(z.object({ name: z.string() }))).toContain('"name"');
    expect(() => formatZodSchema(z3.object({ name: z3.string() }) as never)).toThrow();
  });

  it('installs @weft/testing as a dev dependency', async () => {
    expect(await commandFor('@weft/testing')).toBe('npm install -D @weft/testing');
  });

  it.each([
    ['openai', 'sqlite', ['src/scripted-model.ts']],
    ['openai', 'memory', ['src/memory.ts', 'src/scripted-model.ts']],
    // src/model.ts imports it through src/scripted-model.ts.
    ['scripted', 'sqlite', ['src/scripted-model.ts']],
  ] as const)(
    'lists @weft/testing in the dependencies of a --model %s --memory %s project, whose src imports it from %j',
    async (model, memory, importers) => {
      const files = await renderProject({
        projectName: 'check',
        model,
        memory,
        dependencies: { '@weft/testing': '^0.1.0' },
        dependencyNote: '',
      });
      const importing = [...files]
        .filter(([file, text]) => file.startsWith('src/') && text.includes("from '@weft/testing'"))
        .map(([file]) => file)
        .sort();
      expect(importing).toEqual([...importers]);
      if (model === 'scripted') {
        expect(files.get('src/model.ts')).toContain("from './scripted-model.js'");
      }
      const manifest = JSON.parse(files.get('package.json') ?? '{}') as {
        dependencies: Record<string, string>;
        devDependencies: Record<string, string>;
      };
      expect(Object.keys(manifest.dependencies)).toContain('@weft/testing');
      expect(Object.keys(manifest.devDependencies)).not.toContain('@weft/testing');
    },
  );
});
