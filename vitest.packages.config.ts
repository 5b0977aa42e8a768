import { defineConfig } from 'vitest/config';

// Checks of the tarballs the packages would publish: each file builds and packs first, so they
// run apart from the unit tests, one file at a time.
export default defineConfig({
  test: {
    include: ['tests/pack/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
