/**
 * `npm run check:docs`: what a change to Markdown or TSDoc alone needs before a pull request.
 * Steps, in order, stopping at the first that fails and naming what failed:
 *
 * 1. Prettier, and ESLint for code, on the files changed against the main branch (committed or
 *    not), so an unrelated file never fails a contributor's check.
 * 2. The samples: examples/ type-checked as one project, and their tests run.
 * 3. The tests that read the docs: claims, prose rules, READMEs, TSDoc examples and defaults, the
 *    error, log and configuration references, the whitepaper, and every other test that reads a
 *    page, a package README or the whitepaper to hold what it says to the code.
 * 4. A build of the site, which fails on a broken link; a broken anchor, which Docusaurus only
 *    warns about, fails here too. Then the checks of the build's pages (tests/build/).
 *
 * It prints each step's time. The rest of the packages' tests and the scaffold are `npm test`'s: a
 * change to prose alone cannot break them, but for the tests that run the commands of Getting
 * started, Scaling out and @weft/mcp-docs's README (CI runs every job for a change to those). The
 * site's browser tests (`npm run test:e2e`, on the build this made) are left out for time, though
 * a page's text can break them; CI runs them for such a change.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { runWhenMain } from '../tooling/run-when-main';

const root = path.resolve(__dirname, '..');

/** The tests that read the docs, the READMEs, the whitepaper or the TSDoc. */
export const DOCS_TESTS = [
  'claims',
  'claims-hidden',
  'docs-prose',
  'docs-repository-paths',
  'docs-diagrams',
  'docs-samples',
  'code-samples',
  'package-readmes',
  'core-readme',
  'tsdoc-defaults',
  'errors-registry',
  'errors-docs-url',
  'log-messages',
  'configuration-reference',
  'configuration-environment',
  'installation-page',
  'whitepaper-names',
  'whitepaper-render',
  'assistant-links',
  'release',
  'plugin-catalogue-metadata',
  'last-updated-date',
  'api-reference',
]
  .map((name) => `tests/unit/${name}.test.ts`)
  .concat(
    // Tests of code that also read a page, a README or the whitepaper, to hold its text to the
    // code (a quoted message, an options table, a list the page gives): a change to that text
    // alone fails them. tests/unit/check-docs.test.ts finds such tests and fails on one left out.
    [
      'tests/unit/chat-warning-text',
      'tests/unit/http-chat-answers',
      'tests/unit/ci-workflow',
      'tests/unit/contribution-files',
      'tests/unit/installation-pack',
      'tests/unit/installation-typescript',
      'tests/unit/issue-forms',
      'tests/unit/plugin-catalogue',
      'tests/unit/repository-map',
      'tests/unit/run-panel-registry',
      'tests/unit/swizzled-components',
      'tests/unit/triggers-server-options',
      'tests/integration/http-chat-install',
      'tests/integration/core/get-object-page',
      'packages/create-weft/test/choices',
      'packages/memory-postgres/test/options',
      'packages/memory-postgres/test/readme',
      'packages/model-openai/test/options',
      'packages/plugin-mcp/test/options-defaults',
      'packages/plugin-websocket/test/readme-options',
      'packages/testing/test/readme-errors',
      'tests/unit/testing-browser-exports',
    ].map((name) => `${name}.test.ts`),
  );

/** Warnings of `docusaurus build` that this check treats as failures. */
export const BROKEN_REFERENCE = /Docusaurus found broken (links|anchors)/;

const PRETTIER_FILES = /\.(md|mdx|ts|tsx|js|mjs|cjs|json|ya?ml|css)$/;
const ESLINT_FILES = /\.(ts|tsx|js|mjs|cjs)$/;

function git(args: string[], cwd: string): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

/** The branch a pull request goes to: origin/main when the clone has it, else main. */
function baseRef(cwd: string): string {
  for (const ref of ['origin/main', 'main']) {
    try {
      git(['rev-parse', '--verify', '--quiet', ref], cwd);
      return ref;
    } catch {
      // Not in this clone: try the next.
    }
  }
  return 'HEAD';
}

/** Files changed against the main branch, committed or not, that still exist. */
export function changedFiles(cwd = root): string[] {
  const base = git(['merge-base', 'HEAD', baseRef(cwd)], cwd);
  const listed = [
    ...git(['diff', '--name-only', base], cwd).split('\n'),
    ...git(['ls-files', '--others', '--exclude-standard'], cwd).split('\n'),
  ];
  return [...new Set(listed)].filter((file) => file !== '' && existsSync(path.join(cwd, file)));
}

export interface StepResult {
  passed: boolean;
  output: string;
}

/** Runs a command from node_modules/.bin with its output shown and kept. */
function run(command: string, args: string[]): Promise<StepResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    const keep = (stream: NodeJS.WriteStream) => (chunk: Buffer) => {
      chunks.push(chunk);
      stream.write(chunk);
    };
    child.stdout.on('data', keep(process.stdout));
    child.stderr.on('data', keep(process.stderr));
    child.once('error', (error) => resolve({ passed: false, output: error.message }));
    child.once('close', (code) =>
      resolve({ passed: code === 0, output: Buffer.concat(chunks).toString() }),
    );
  });
}

export interface Step {
  name: string;
  run: () => Promise<StepResult>;
  /** What to tell the contributor when the step fails. */
  hint: string;
}

const bin = (name: string): string => path.join(root, 'node_modules/.bin', name);

export function steps(files: readonly string[]): Step[] {
  const formatted = files.filter((file) => PRETTIER_FILES.test(file));
  const linted = files.filter((file) => ESLINT_FILES.test(file));
  return [
    {
      name: `format and lint of ${files.length} changed files`,
      run: async () => {
        const format = formatted.length
          ? await run(bin('prettier'), ['--check', ...formatted])
          : { passed: true, output: '' };
        if (!format.passed) return format;
        return linted.length ? run(bin('eslint'), linted) : format;
      },
      hint: 'npx prettier --write <file> formats a file; ESLint names the file, line and rule above.',
    },
    {
      name: 'samples: examples/ type-checked and their tests',
      run: async () => {
        const types = await run(bin('tsc'), ['-p', 'examples/tsconfig.json', '--noEmit']);
        return types.passed ? run(bin('vitest'), ['run', 'examples/']) : types;
      },
      hint: 'A sample is a file under examples/: the error above names it and its line.',
    },
    {
      name: 'docs checks: claims, prose, READMEs, TSDoc, references',
      run: () => run(bin('vitest'), ['run', ...DOCS_TESTS]),
      hint: 'A failed claim names the page, the sentence and the test that checks it.',
    },
    {
      name: 'site build: broken links and anchors fail',
      run: async () => {
        const build = await run('npm', ['run', 'build']);
        const broken = BROKEN_REFERENCE.exec(build.output);
        if (build.passed && broken) {
          return { passed: false, output: `${broken[0]}: see the list above.` };
        }
        return build.passed
          ? run(bin('vitest'), ['run', '--config', 'vitest.build.config.ts'])
          : build;
      },
      hint: 'The build names each page with a broken link or anchor, and the target.',
    },
  ];
}

/**
 * Runs the steps in order and stops at the first that fails; answers the times of the steps that
 * ran and the failed step, if any.
 */
export async function runSteps(
  list: readonly Step[],
): Promise<{ times: { step: string; seconds: number }[]; failed?: Step }> {
  const times: { step: string; seconds: number }[] = [];
  for (const step of list) {
    console.log(`\n===== check:docs: ${step.name}`);
    const stepStarted = performance.now();
    const result = await step.run();
    times.push({ step: step.name, seconds: Math.round((performance.now() - stepStarted) / 1000) });
    if (!result.passed) return { times, failed: step };
  }
  return { times };
}

async function main(): Promise<void> {
  const started = performance.now();
  const { times, failed } = await runSteps(steps(changedFiles()));
  console.table(times);
  if (failed !== undefined) {
    console.error(`\ncheck:docs failed at "${failed.name}". ${failed.hint}`);
    process.exitCode = 1;
    return;
  }
  console.log(`check:docs passed in ${Math.round((performance.now() - started) / 1000)} s`);
}

runWhenMain(import.meta.url, 'run check:docs', main);
