import type { MemoryChoice } from './choices.js';

/**
 * The `allowScripts` field of a generated project's package.json: npm 12 runs a dependency's
 * install script only when this field allows it, and npm 11 warns about every one it does not
 * name. Each entry is a decision, so a project installs the same way on both:
 * - `better-sqlite3` (the SQLite memory's driver) compiles its native module in its install
 *   script; without it `require('better-sqlite3')` fails to find its bindings.
 * - `esbuild` (through tsx and vitest) only checks its binary in its script; the binary comes
 *   from its platform package, which installs without a script.
 */
export function allowedInstallScripts(memory: MemoryChoice): Record<string, boolean> {
  return {
    ...(memory === 'sqlite' ? { 'better-sqlite3': true } : {}),
    esbuild: false,
  };
}
