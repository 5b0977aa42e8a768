import { defineConfig, type Options } from 'tsup';
import { isBuildFresh, workspaceDependencyDirs } from './build-freshness';

/**
 * Declarations are built against the other workspace packages' built declarations (what their
 * package.json "types" names, as a user's compiler sees them) when every one this package
 * depends on is freshly built: the program is then this package's sources only, about half the
 * time of one that type-checks the dependencies' sources too. Otherwise against their sources
 * (the weft-source condition of the package's tsconfig), so that a package builds on its own in
 * a fresh clone. Both give the same declarations.
 */
export function declarationBuild(packageDir: string): Options['dts'] {
  const dependenciesBuilt = workspaceDependencyDirs(packageDir).every(isBuildFresh);
  return dependenciesBuilt ? { compilerOptions: { customConditions: [] } } : true;
}

/**
 * The build every workspace package ships: ESM, CommonJS and type declarations for Node 20,
 * from `src/index.ts`. A package passes only what differs, such as its externals. tsup runs in
 * the package's folder.
 */
export function packageBuild(overrides: Options = {}): ReturnType<typeof defineConfig> {
  return defineConfig({
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: declarationBuild(process.cwd()),
    clean: true,
    sourcemap: true,
    target: 'node20',
    ...overrides,
  });
}
