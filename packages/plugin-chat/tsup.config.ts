import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // The plugin runs inside the user's runtime: share its core and zod rather than bundling copies.
  external: ['@weft/core', 'zod'],
});
