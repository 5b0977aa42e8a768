import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // The native binding is resolved from the user's node_modules at run time, never bundled.
  external: ['better-sqlite3', '@weft/core'],
});
