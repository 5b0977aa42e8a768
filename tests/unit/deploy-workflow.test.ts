/**
 * The published site's build (.github/workflows/deploy.yml) always carries the API reference
 * generated from the core's current sources: it never sets TYPEDOC (false would skip TypeDoc and
 * ship a stand-in or stale pages), and it restores no earlier `api/` or `.cache/`, so the build's
 * source stamp cannot match and TypeDoc runs. See "The API reference and `TYPEDOC=false`" in
 * docs/contributing-guide.md.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = path.resolve(__dirname, '../..');

interface Step {
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Workflow {
  env?: Record<string, string>;
  jobs: Record<string, { env?: Record<string, string>; steps: Step[] }>;
}

const text = readFileSync(path.join(root, '.github/workflows/deploy.yml'), 'utf8');
const workflow = parse(text) as Workflow;
const jobs = Object.values(workflow.jobs);
const steps = jobs.flatMap((job) => job.steps);

describe('the deploy workflow', () => {
  it('builds the site with npm run build, TYPEDOC unset, from a checkout without earlier API pages [claim:contributing-deploy-builds-api-reference]', () => {
    expect(steps.map((step) => step.run)).toContain('npm run build');
    const envs = [workflow.env, ...jobs.map((job) => job.env), ...steps.map((step) => step.env)];
    for (const env of envs) expect(Object.keys(env ?? {})).not.toContain('TYPEDOC');
    expect(text).not.toMatch(/TYPEDOC/);
    // Only npm's download cache is restored (setup-node's `cache: npm`), never api/ or .cache/.
    expect(steps.filter((step) => step.uses?.startsWith('actions/cache'))).toEqual([]);
  });
});
