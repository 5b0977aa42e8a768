/**
 * The CI workflow runs what `npm test` runs, one named step per script and in the same order,
 * so a red build says which stage failed and a local `npm test` still means "what CI checks".
 * The Node version CI installs is read from .nvmrc, which every `engines` field agrees with,
 * and every action is pinned to a full commit with its version in a comment.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

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

describe('the CI workflow', () => {
  it('runs the scripts of npm test as separate steps, in order', () => {
    const testScript = manifest('package.json').scripts?.test ?? '';
    const stages = testScript.split('&&').map((part) => part.trim().replace(/^npm run /, ''));
    const steps = [...ci.matchAll(/^\s+run: npm run (\S+)\s*$/gm)].map((match) => match[1]);
    expect(stages.length).toBeGreaterThan(3);
    expect(steps).toEqual(stages);
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

  it('is the minimum that every engines field asks for', () => {
    expect(nvmrc).toMatch(/^\d+\.\d+$/);
    const packages = readdirSync(path.join(root, 'packages'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `packages/${entry.name}/package.json`);
    for (const file of ['package.json', ...packages]) {
      expect({ file, node: manifest(file).engines?.node }).toEqual({ file, node: `>=${nvmrc}` });
    }
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
