/**
 * Prints, as JSON, every ```ts block of every `@example` tag in the core's public API, as TypeDoc
 * reads it for the API reference: `[{ owner, code }]`. Run as a child process by
 * tests/unit/code-samples.test.ts: converting the core builds a TypeScript program, which holds
 * the event loop of the process that builds it for as long as that takes, and a Vitest worker
 * held for a minute fails the whole run.
 *
 * Run: node --conditions=weft-source --import tsx tests/unit/support/core-examples.ts
 */
import { Application, type Reflection } from 'typedoc';
import { API_ENTRY_POINT, API_TSCONFIG } from '@weft-internal/docs-model/typedoc';

/** One example: the code of a ```ts block, and the full name of the reflection it documents. */
export interface CoreExample {
  owner: string;
  code: string;
}

async function coreExamples(): Promise<CoreExample[]> {
  const app = await Application.bootstrapWithPlugins({
    entryPoints: [API_ENTRY_POINT],
    tsconfig: API_TSCONFIG,
    excludePrivate: true,
    logLevel: 'Error',
  });
  const project = await app.convert();
  if (!project) throw new Error('TypeDoc could not convert the core package');
  const examples: CoreExample[] = [];
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

coreExamples().then(
  (examples) => process.stdout.write(JSON.stringify(examples)),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
