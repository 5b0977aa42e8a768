import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { Application, type Reflection } from 'typedoc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ENTRY_POINT, API_TSCONFIG } from '@weft-internal/docs-model/typedoc';

const run = promisify(execFile);
const coreDir = path.resolve('packages/core');

interface Example {
  owner: string;
  code: string;
}

/** Every ```ts block of every @example tag in the core's public API. */
async function collectExamples(): Promise<Example[]> {
  const app = await Application.bootstrapWithPlugins({
    entryPoints: [API_ENTRY_POINT],
    tsconfig: API_TSCONFIG,
    excludePrivate: true,
    logLevel: 'Error',
  });
  const project = await app.convert();
  if (!project) throw new Error('TypeDoc could not convert the core package');
  const examples: Example[] = [];
  const visit = (reflection: Reflection): void => {
    const comments = [
      (reflection as { comment?: unknown }).comment,
      ...((reflection as { signatures?: { comment?: unknown }[] }).signatures ?? []).map(
        (signature) => signature.comment,
      ),
    ];
    for (const comment of comments) {
      const tag = (comment as { getTag?(name: string): { content: { text: string }[] } })?.getTag?.(
        '@example',
      );
      if (!tag) continue;
      const text = tag.content.map((part) => part.text).join('');
      for (const match of text.matchAll(/```ts\n([\s\S]*?)```/g)) {
        examples.push({ owner: reflection.getFullName(), code: match[1] ?? '' });
      }
    }
    reflection.traverse((child) => visit(child));
  };
  visit(project);
  return examples;
}

describe('TSDoc examples of @weft/core', () => {
  let examples: Example[] = [];
  let dir = '';

  beforeAll(async () => {
    examples = await collectExamples();
    // Inside the package, so '@weft/core' resolves to its own sources through the workspace.
    dir = await mkdtemp(path.join(coreDir, '.tsdoc-examples-'));
  }, 120_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('cover the API a plugin author calls', () => {
    const owners = new Set(examples.map((example) => example.owner));
    for (const owner of [
      'Runtime',
      'Runtime.init',
      'Runtime.dispatch',
      'Plugin',
      'ModelProvider',
      'MemoryProvider',
      'ModelManager.call',
      'ModelManager.generateText',
      'ModelManager.getObject',
      'defineCapability',
      'formatZodSchema',
      'PromptRegistry',
    ]) {
      expect(owners, `no @example for ${owner}`).toContain(owner);
    }
  });

  it('compile against the public API [claim:liq-define-template] [claim:cg-tsdoc-checks] [claim:index-api-examples-checked] [claim:wp-api-examples-checked]', async () => {
    expect(examples.length).toBeGreaterThan(15);
    const files: string[] = [];
    for (const [index, example] of examples.entries()) {
      const file = path.join(dir, `example-${index}.ts`);
      // Each example is its own module, so top-level names never collide.
      await writeFile(file, `// ${example.owner}\n${example.code}\nexport {};\n`);
      files.push(file);
    }
    await writeFile(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: '../tsconfig.json',
        compilerOptions: { noUnusedLocals: false, module: 'NodeNext', noEmit: true },
        include: ['*.ts'],
      }),
    );
    const result = await run('npx', ['tsc', '-p', path.join(dir, 'tsconfig.json')], {
      cwd: coreDir,
    }).catch((error: { stdout: string }) => ({ stdout: error.stdout, failed: true }));
    expect('failed' in result ? result.stdout : '').toBe('');
  }, 120_000);
});
