import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// variants.test.ts loads a generated project inside the repository from the workspace sources.
const conditions = ['weft-source', ...defaultServerConditions];

// Creates agent projects outside the repository, from a local registry and from this clone,
// and runs them, and rehearses the Scaling out guide's image: slow, so apart from the unit tests.
// Two files at a time: each works in its own temporary folder on its own free ports, and most
// of their time goes to package installs, so the registry's file (the longest, most of it
// waiting on three package managers) runs beside all the others.
const REGISTRY_FILE = 'tests/scaffold/registry.test.ts';

/** Vitest's order, but the registry's file first, so that the others fill the second worker. */
class RegistryFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isRegistry = (file: TestSpecification) => file.moduleId.endsWith(REGISTRY_FILE);
    return [...sorted.filter(isRegistry), ...sorted.filter((file) => !isRegistry(file))];
  }
}

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ['tests/scaffold/**/*.test.ts'],
    maxWorkers: 2,
    sequence: { sequencer: RegistryFirst },
    testTimeout: 300_000,
    env: { WEFT_LOG_LEVEL: 'silent' },
    hookTimeout: 600_000,
  },
});
