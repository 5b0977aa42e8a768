/**
 * Writes the agent files of the project `create-weft` generates from the getting-started
 * example, so the two teach one agent: the example is the source (a test runs it and the
 * Getting started page shows it), the template holds byte-for-byte copies.
 * packages/create-weft/test/agent-template.test.ts fails when a copy differs; run
 * `npm run generate:agent-template -w create-weft` after editing the example.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXAMPLE_DIR, SHARED_FILES, TEMPLATE_DIR } from './agent-template-files';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Copies each shared file from the example to the template; returns the files that changed. */
async function generateAgentTemplate(): Promise<string[]> {
  const changed: string[] = [];
  for (const file of SHARED_FILES) {
    const source = await readFile(path.join(root, EXAMPLE_DIR, file), 'utf8');
    const target = path.join(root, TEMPLATE_DIR, file);
    const current = await readFile(target, 'utf8').catch(() => undefined);
    if (current === source) continue;
    await writeFile(target, source);
    changed.push(path.join(TEMPLATE_DIR, file));
  }
  return changed;
}

generateAgentTemplate().then(
  (changed) => {
    console.log(changed.length > 0 ? `Wrote ${changed.join(', ')}` : 'The template is up to date.');
  },
  (error: unknown) => {
    console.error(
      'Could not generate the agent template:',
      error instanceof Error ? error.message : error,
    );
    process.exitCode = 1;
  },
);
