import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defaultServerConditions } from 'vite';
import { globSync } from 'tinyglobby';
import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources, so tests never need a build first.
// Node-side tests use Vite's SSR resolver, which reads its own conditions list.
const conditions = ['weft-source', ...defaultServerConditions];

const TEST_FILES = [
  'packages/*/test/**/*.test.ts',
  'tests/unit/**/*.test.ts',
  'tests/integration/**/*.test.ts',
  'examples/**/*.test.ts',
];

/**
 * What marks a test file that needs modules of its own: it replaces a module or a global with
 * vi's helpers, sets the environment the modules it loads read (a variable, or the whole of
 * `process.env`), or says so in a comment (it watches how a module loads, or loads one that a
 * file before it would have loaded differently).
 */
export const NEEDS_OWN_MODULES =
  /\bvi\.(mock|doMock|unmock|doUnmock|resetModules|stubGlobal|stubEnv)\(|\bprocess\.env(\.\w+|\[[^\]]+\])?\s*(\?\?|\|\||&&|\+)?=[^=]|\bObject\.assign\(\s*process\.env\b|\bdelete process\.env|\bReflect\.(set|deleteProperty|defineProperty)\(\s*process\.env\b|@vitest-own-modules\b/;

const ownModuleFiles = globSync(TEST_FILES, { ignore: ['**/node_modules/**'] }).filter((file) =>
  NEEDS_OWN_MODULES.test(readFileSync(file, 'utf8')),
);

export default defineConfig({
  // Site components use React's automatic JSX runtime, as Docusaurus compiles them.
  esbuild: { jsx: 'automatic' },
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    testTimeout: 20_000,
    // Vitest runs one file fewer than there are cores, so one at a time on a 2-core machine; most
    // files here wait on servers, child processes and timers rather than compute, so two at a
    // time finish sooner there without starving each other.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    poolOptions: { forks: { isolate: false } },
    projects: [
      // Most files share their worker's modules with the files it ran before: loading the core,
      // zod and the servers' packages again for every file was much of the suite's processor
      // time. The others get a fresh set each.
      {
        extends: true,
        test: { name: 'unit', include: TEST_FILES, exclude: ownModuleFiles },
      },
      // Isolation is the pool's, not the project's: these run in worker threads, each file in a
      // thread of its own.
      { extends: true, test: { name: 'own modules', include: ownModuleFiles, pool: 'threads' } },
    ],
  },
});
