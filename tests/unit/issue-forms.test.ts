/**
 * The repository's issue forms (.github/ISSUE_TEMPLATE/): blank issues are off, so a page that
 * tells readers to open an issue for some purpose must name a form that exists for it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = path.resolve(__dirname, '../..');
const formsDirectory = path.join(root, '.github/ISSUE_TEMPLATE');

interface IssueForm {
  name: string;
  description: string;
  labels?: string[];
  body: { type: string; id?: string; attributes: { label?: string; options?: string[] } }[];
}

function readYaml(file: string): unknown {
  return parse(readFileSync(path.join(formsDirectory, file), 'utf8'));
}

const forms = readdirSync(formsDirectory)
  .filter((file) => file.endsWith('.yml') && file !== 'config.yml')
  .map((file) => readYaml(file) as IssueForm);

describe('issue forms', () => {
  it('offer a feature request form that asks whether the work should be a bounty, as the bounty page says, with blank issues off [claim:bounty-request-form]', () => {
    const config = readYaml('config.yml') as { blank_issues_enabled?: boolean };
    expect(config.blank_issues_enabled).toBe(false);

    const page = readFileSync(path.join(root, 'docs/bounty-program.md'), 'utf8');
    const named = /open an issue with the repository's \*\*([^*]+)\*\* form/.exec(page)?.[1];
    expect(named).toBeDefined();
    const form = forms.find((candidate) => candidate.name === named);
    expect(form, `no issue form is named "${named}"`).toBeDefined();
    expect(form?.description).toMatch(/bounty/);
    const bountyQuestion = form?.body.find((field) => field.id === 'bounty');
    expect(bountyQuestion?.type).toBe('dropdown');
    expect(bountyQuestion?.attributes.options).toContain('Yes, I suggest it as a bounty');
  });
});
