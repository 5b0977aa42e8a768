/**
 * What `npm test` runs: every npm script of the test command, in order, each with the CI job
 * that runs it (.github/workflows/ci.yml, held to this list by tests/unit/ci-workflow.test.ts).
 * Phases in one step run at the same time: they share no files or ports, and each leaves the
 * other's CPU alone for most of its time.
 */

/** The CI jobs, by concern; each runs its phases in the order of {@link TEST_STEPS}. */
export const CI_JOBS = {
  'lint-and-types': 'Lint and types',
  framework: 'Framework tests',
  packages: 'Packages, registry and scaffold',
  'node-versions': 'Packages on other Node.js versions (a matrix, one job per version)',
  site: 'Site build and browser tests',
} as const;

export type CiJob = keyof typeof CI_JOBS;

export interface TestPhase {
  /** The npm script. */
  script: string;
  job: CiJob;
  /** Whether a change to docs/, blog/ or Markdown alone can break it (CI runs only these then). */
  docs: boolean;
  /** Checks the packages' tarballs: npm test packs them once, before the first such phase. */
  packed?: true;
}

/** Each inner list is one step; steps run one after the other and stop at the first failure. */
export const TEST_STEPS: readonly (readonly TestPhase[])[] = [
  [
    { script: 'lint', job: 'lint-and-types', docs: true },
    { script: 'typecheck', job: 'lint-and-types', docs: false },
  ],
  [{ script: 'test:unit', job: 'framework', docs: true }],
  [{ script: 'test:browser', job: 'framework', docs: false }],
  [{ script: 'test:packages', job: 'packages', docs: false, packed: true }],
  // Both mostly wait on npm installs and child processes, each in temporary folders of its own.
  [
    { script: 'test:scaffold', job: 'packages', docs: false, packed: true },
    { script: 'test:node-versions', job: 'node-versions', docs: false, packed: true },
  ],
  [{ script: 'build', job: 'site', docs: true }],
  [{ script: 'test:build', job: 'site', docs: true }],
  [{ script: 'test:e2e', job: 'site', docs: true }],
];

export const TEST_PHASES: readonly TestPhase[] = TEST_STEPS.flat();
