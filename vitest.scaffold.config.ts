import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// variants.test.ts loads a generated project inside the repository from the workspace sources.
const conditions = ['weft-source', ...defaultServerConditions];

// Creates agent projects outside the repository, from a local registry and from this clone,
// and runs them, and rehearses the Scaling out guide's image: slow, so apart from the unit tests.
// One file at a time on small machines.
export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ['tests/scaffold/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 300_000,
    env: { WEFT_LOG_LEVEL: 'silent' },
    hookTimeout: 600_000,
  },
});
