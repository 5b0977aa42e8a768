/**
 * The template variants the installing tests leave out (the Ollama model and SQLite memory;
 * registry.test.ts uses the scripted model, clone.test.ts OpenAI, both with memory in
 * memory), checked inside the repository where `@weft/*` resolve to the workspace sources:
 * the project type-checks with its own tsconfig, and its agent runs on SQLite.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { MemoryProvider, ModelProvider, Runtime } from '@weft/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../packages/create-weft/src/create-project';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');

describe('--model ollama --memory sqlite, inside the repository', () => {
  let work = '';
  let directory = '';
  beforeAll(async () => {
    // Inside the repository, so the workspace's node_modules are found.
    work = await mkdtemp(path.join(root, 'packages/create-weft/.variants-check-'));
    directory = path.join(work, 'ollama-sqlite');
    await createProject({ directory, model: 'ollama', memory: 'sqlite', source: 'registry' });
    // The project's own settings, reading the workspace packages from their sources.
    await writeFile(
      path.join(directory, 'tsconfig.check.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        compilerOptions: { customConditions: ['weft-source'] },
      }),
    );
  });

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('type-checks', async () => {
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.check.json'], {
      cwd: directory,
      timeout: 90_000,
    }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(result).toBe('');
  }, 120_000);

  it('runs the SQLite variant: a posted message is answered and remembered in the file', async () => {
    const { createAgent } = (await import(path.join(directory, 'src/agent.ts'))) as {
      createAgent: (options: {
        model: ModelProvider;
        memory: MemoryProvider;
        port: number;
      }) => Promise<Runtime>;
    };
    const { createMemory } = (await import(path.join(directory, 'src/memory.ts'))) as {
      createMemory: (env: NodeJS.ProcessEnv) => MemoryProvider;
    };
    const { createScriptedModel } = (await import(
      path.join(directory, 'src/scripted-model.ts')
    )) as { createScriptedModel: () => ModelProvider };

    const file = path.join(directory, 'data/nested/memory.db');
    const runtime = await createAgent({
      model: createScriptedModel(),
      memory: createMemory({ WEFT_MEMORY_PATH: file }),
      port: 0,
    });
    await runtime.start();
    try {
      const response = await fetch(`${runtime.server.url}/messages`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ user: 'ada', text: 'Remember me' }),
        signal: AbortSignal.timeout(10_000),
      });
      expect(await response.json()).toMatchObject({
        status: 'completed',
        reply: 'You said "Remember me". Your Weft agent is listening.',
      });
    } finally {
      await runtime.stop();
    }

    // A second provider on the same file sees what the first one stored.
    const reopened = createMemory({ WEFT_MEMORY_PATH: file });
    await reopened.init?.();
    const memories = await reopened.query({ space: 'user-ada', order: 'asc' });
    await reopened.shutdown?.();
    expect(memories.map((memory) => memory.kind)).toEqual(['trigger', 'chain']);
  });
});
