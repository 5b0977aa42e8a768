/**
 * Hover types read beside the build. When some sample's types are not cached, `npm run build`
 * (scripts/build-site.ts) reads them in a process of its own while Docusaurus loads, and names
 * in {@link HOVER_TYPES_PENDING_VARIABLE} a file that exists while that process runs. A block
 * whose types are missing then waits for that process's entry rather than building a second
 * TypeScript program over the samples beside the bundler.
 */
import { existsSync } from 'node:fs';
import { hoverCache } from './hover-cache';
import type { TypeHover } from './sample-types';

/** The variable naming the file that exists while the build's hover-types process runs. */
export const HOVER_TYPES_PENDING_VARIABLE = 'WEFT_HOVER_TYPES_PENDING';

/**
 * How long a block waits for that process at most. Reading every sample takes seconds; past
 * this the process is taken to be stuck, and the block reads its types itself.
 */
export const HOVER_TYPES_WAIT_MS = 120_000;

const POLL_MS = 50;

/**
 * The types of `code` (the text of the sample `file`) once the build's hover-types process has
 * cached them; undefined at once when no such process runs, and when it ended or
 * {@link HOVER_TYPES_WAIT_MS} passed without them.
 */
export async function typesReadBeside(
  file: string,
  code: string,
  marker: string | undefined = process.env[HOVER_TYPES_PENDING_VARIABLE],
  waitMs = HOVER_TYPES_WAIT_MS,
): Promise<TypeHover[] | undefined> {
  if (!marker) return undefined;
  const deadline = Date.now() + waitMs;
  while (existsSync(marker) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const found = hoverCache().read(file, code);
    if (found) return found;
  }
  // The process may have written the entry just before it ended.
  return hoverCache().read(file, code);
}
