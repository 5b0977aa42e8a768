/**
 * What `npm test` runs: every npm script of the test command, in order, each with the CI job
 * that runs it (.github/workflows/ci.yml, held to this list by tests/unit/ci-workflow.test.ts).
 * Phases that run at the same time share no files or ports.
 */

/** The CI jobs, by concern; each runs its phases in the order of {@link TEST_PHASES}. */
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
  /**
   * Whether a change to docs/, blog/ or Markdown alone can break it (CI runs only these then). A
   * page whose commands the scaffold or package tests run counts as code there (ci.yml).
   */
  docs: boolean;
  /** Checks the packages' tarballs: npm test packs them once, before the first such phase. */
  packed?: true;
  /**
   * Reads the site build (`build/`): the site's checks, the docs MCP server's tests, and every
   * packed phase, since packing @weft/mcp-docs makes its data from the site build. npm test runs
   * it after the `build` phase; a CI job that runs it but not `build` builds the site first.
   */
  siteBuild?: true;
}

interface PhaseFlags {
  packed?: true;
  siteBuild?: true;
}

const phase = (script: string, job: CiJob, docs: boolean, flags: PhaseFlags = {}): TestPhase => ({
  script,
  job,
  docs,
  ...(flags.packed || flags.siteBuild ? { siteBuild: true as const } : {}),
  ...(flags.packed ? { packed: true as const } : {}),
});

/** Steps run one after the other; the phases of one step run at the same time. */
export type Lane = readonly (readonly TestPhase[])[];

/**
 * Stages run one after the other; the lanes of one stage run at the same time, and a lane stops
 * at its first failure (the others finish the step they are in and start no other).
 *
 * The site build comes first, alone: it keeps both processors busy, and the unit tests, the
 * site's checks and packing (whose @weft/mcp-docs data is made from its Markdown copies) all read
 * it. Then three lanes. The unit tests, the longest phase, start at once, after the site's checks;
 * their files mostly wait on servers, child processes and timers, and their deadlines leave room
 * for the load beside them. The packages and the Node.js versions, and the scaffold, mostly wait
 * on npm installs and child processes in temporary folders of their own, and read the sources,
 * `build/` and `.cache/packed` only; they start once the packages are packed. Lint and the types
 * come after the scaffold, when the other lanes are ending and leave a processor free. The site's
 * browser tests run alone, last: they keep both processors busy, and several of them time what a
 * reader sees.
 */
export const TEST_STAGES: readonly (readonly Lane[])[] = [
  [[[phase('build', 'site', true)]]],
  [
    [
      [phase('test:build', 'site', true, { siteBuild: true })],
      [phase('test:unit', 'framework', true, { siteBuild: true })],
      [phase('test:browser', 'framework', false)],
    ],
    [
      [phase('test:packages', 'packages', false, { packed: true })],
      [phase('test:node-versions', 'node-versions', false, { packed: true })],
    ],
    [
      [phase('test:scaffold', 'packages', false, { packed: true })],
      [phase('lint', 'lint-and-types', true), phase('typecheck', 'lint-and-types', false)],
    ],
  ],
  [[[phase('test:e2e', 'site', true, { siteBuild: true })]]],
];

export const TEST_PHASES: readonly TestPhase[] = TEST_STAGES.flat(3);

/**
 * The niceness of a stage's lanes beside its first, whose phases npm test starts through nice(1).
 * The unit tests' timings, and Vitest's one-minute deadline for a worker's reports (a test that
 * holds its worker's event loop longer fails the whole run, as creating a TypeScript program did
 * on a tenth of a processor), need the processors more than npm installs, lint and the types do,
 * which take what the first lane leaves.
 */
export const BESIDE_LANE_NICENESS = 10;

/** How long a phase of this run took. */
export interface PhaseTime {
  phase: TestPhase;
  seconds: number;
}

/**
 * Each CI job's time after its `npm ci`, from a run's phase times: the phases the job runs (only
 * those a change to docs alone can break, for `docsOnly`), and the site build before them when
 * they read it and the job does not run the `build` phase itself, as ci.yml's jobs build first.
 */
export function ciJobSeconds(times: readonly PhaseTime[], docsOnly: boolean): [CiJob, number][] {
  const build = times.find(({ phase }) => phase.script === 'build')?.seconds ?? 0;
  return (Object.keys(CI_JOBS) as CiJob[]).map((job) => {
    const ran = times.filter(({ phase }) => phase.job === job && (!docsOnly || phase.docs));
    const buildsFirst =
      ran.some(({ phase }) => phase.siteBuild) &&
      !TEST_PHASES.some((phase) => phase.job === job && phase.script === 'build');
    return [job, ran.reduce((sum, { seconds }) => sum + seconds, buildsFirst ? build : 0)];
  });
}
