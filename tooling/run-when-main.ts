/**
 * Runs a script's job when the script is the process's entry point, and not when another command
 * imports it: scripts/generate-assets.ts and scripts/build-site.ts run every generator in one
 * process (tooling/assets/generate-assets.ts), so a build starts Node and tsx once for all of them.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function runWhenMain(moduleUrl: string, label: string, job: () => Promise<void>): void {
  const entry = process.argv[1];
  if (entry === undefined || realpathSync(entry) !== realpathSync(fileURLToPath(moduleUrl))) {
    return;
  }
  // Through a promise, so that a job that throws before its first await (a bad argument, say)
  // is reported the same way as one that rejects, not as an uncaught exception's stack.
  Promise.resolve()
    .then(() => job())
    .catch((error: unknown) => {
      console.error(`Could not ${label}:`, error instanceof Error ? error.message : error);
      process.exitCode = 1;
    });
}
