import { availableParallelism } from 'node:os';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources, so tests never need a build first.
// Node-side tests use Vite's SSR resolver, which reads its own conditions list.
const conditions = ['weft-source', ...defaultServerConditions];

export default defineConfig({
  // Site components use React's automatic JSX runtime, as Docusaurus compiles them.
  esbuild: { jsx: 'automatic' },
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: [
      'packages/*/test/**/*.test.ts',
      'tests/unit/**/*.test.ts',
      'tests/integration/**/*.test.ts',
      'examples/**/*.test.ts',
    ],
    testTimeout: 20_000,
    // Vitest runs one file fewer than there are cores, so one at a time on a 2-core machine; most
    // files here wait on servers, child processes and timers rather than compute, so two at a
    // time finish sooner there without starving each other.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
