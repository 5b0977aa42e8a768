import { defineConfig } from 'vitest/config';

// Checks on the production build in build/ (run `npm run build` first).
export default defineConfig({
  test: {
    include: ['tests/build/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
