import { defineConfig, type Options } from 'tsup';

/**
 * The build every workspace package ships: ESM, CommonJS and type declarations for Node 20,
 * from `src/index.ts`. A package passes only what differs, such as its externals.
 */
export function packageBuild(overrides: Options = {}): ReturnType<typeof defineConfig> {
  return defineConfig({
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'node20',
    ...overrides,
  });
}
