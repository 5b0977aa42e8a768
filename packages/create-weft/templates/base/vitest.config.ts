import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The runtime logs JSON lines at `info`; tests keep their output readable.
    env: { WEFT_LOG_LEVEL: 'silent' },
    testTimeout: 20_000,
  },
});
