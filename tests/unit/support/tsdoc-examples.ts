import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** The ```ts blocks inside `@example` tags of a source file, without the comment's stars. */
export function examplesOf(source: string): string[] {
  return [...source.matchAll(/@example\s*\n\s*\*\s*```ts\n([\s\S]*?)\n\s*\*\s*```/g)].map((match) =>
    (match[1] ?? '')
      .split('\n')
      .map((line) => line.replace(/^\s*\* ?/, ''))
      .join('\n'),
  );
}

/**
 * The TSDoc examples of a package's sources, as modules for `typeCheckModules`.
 *
 * @param sources - The package's `src` folder.
 * @returns One module per example, named `example-<n>`.
 */
export async function packageExamples(sources: string): Promise<Map<string, string>> {
  const examples: string[] = [];
  for (const file of (await readdir(sources)).filter((name) => name.endsWith('.ts')).sort()) {
    examples.push(...examplesOf(await readFile(path.join(sources, file), 'utf8')));
  }
  return new Map(examples.map((code, index) => [`example-${index + 1}`, code]));
}
