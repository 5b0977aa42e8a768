/**
 * Runs a generator script's job when the script is the process's entry point, and not when
 * scripts/generate-assets.ts imports it to run every generator in one process (one Node and tsx
 * start-up instead of three: about 1.3 s of each build).
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function runWhenMain(moduleUrl: string, label: string, job: () => Promise<void>): void {
  const entry = process.argv[1];
  if (entry === undefined || realpathSync(entry) !== realpathSync(fileURLToPath(moduleUrl))) {
    return;
  }
  job().catch((error: unknown) => {
    console.error(`Could not ${label}:`, error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
