import { defineConfig } from 'vitest/config';

// Creates agent projects outside the repository, from a local registry and from this clone,
// and runs them: slow, so apart from the unit tests. One file at a time on small machines.
export default defineConfig({
  test: {
    include: ['tests/scaffold/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 420_000,
  },
});
