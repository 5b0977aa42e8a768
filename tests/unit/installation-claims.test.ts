/**
 * Installation, "What your project installs itself" and "The packages": the tables hold to the
 * repository's packages, to the dependency ranges of @weft/core, and to what a generated
 * project imports. Each title carries the claim ids it guards.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createProject } from '../../packages/create-weft/src/create-project';
import { codeRows, readDoc } from './support/doc-tables';

const PACKAGES = path.join(__dirname, '../../packages');

interface Manifest {
  name: string;
  private?: boolean;
  dependencies?: Record<string, string>;
}

function manifestOf(folder: string): Manifest {
  return JSON.parse(readFileSync(path.join(PACKAGES, folder, 'package.json'), 'utf8')) as Manifest;
}

const rows = codeRows(readDoc('installation.md'));
let work = '';
afterAll(async () => {
  if (work !== '') await rm(work, { recursive: true, force: true });
});

describe('installation', () => {
  it('lists every published package of the repository in the packages table [claim:install-packages-table]', () => {
    const published = readdirSync(PACKAGES, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => manifestOf(entry.name))
      .filter((manifest) => manifest.private !== true)
      .map((manifest) => manifest.name);
    for (const name of published) {
      expect(rows.get(name)?.[1], `a row for ${name}`).toMatch(/^`npm (install|create) /);
    }
    expect(published.length).toBeGreaterThanOrEqual(8);
  });

  it.each(['zod', 'pino'])(
    'installs %s in the version range @weft/core depends on, which brings its own copy [claim:install-core-brings-deps] [claim:install-same-major]',
    (name) => {
      const range = manifestOf('core').dependencies?.[name];
      expect(range).toMatch(/^\^\d+\.\d+\.\d+$/);
      const command = rows.get(name)?.[1] ?? '';
      const asked = /@(\^\d+\.\d+)`$/.exec(command)?.[1];
      expect(asked, command).toBeDefined();
      expect(range?.startsWith(`${asked}.`)).toBe(true);
    },
  );

  it('generates a project whose scripted model and in-memory store import @weft/testing [claim:install-pino-generated] [claim:install-testing-dependencies]', async () => {
    work = await mkdtemp(path.join(tmpdir(), 'weft-installation-'));
    const directory = path.join(work, 'agent');
    await createProject({ directory, model: 'scripted', memory: 'memory', source: 'registry' });
    const manifest = JSON.parse(await readFile(path.join(directory, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    expect(manifest.dependencies).toHaveProperty('@weft/testing');
    expect(manifest.dependencies).toHaveProperty('pino');
    expect(manifest.devDependencies?.['@weft/testing']).toBeUndefined();
    for (const file of ['src/scripted-model.ts', 'src/memory.ts']) {
      expect(await readFile(path.join(directory, file), 'utf8')).toMatch(/from '@weft\/testing'/);
    }
    expect(await readFile(path.join(directory, 'src/agent.ts'), 'utf8')).toMatch(
      /import type \{[^}]*\bLogger\b[^}]*\} from 'pino'/,
    );
  });
});
