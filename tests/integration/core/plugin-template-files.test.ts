/**
 * A plugin that keeps its prompts in .liquid files loads them with loadDirectory in its init:
 * they are registered under its id, and a file that does not parse fails the start, naming the
 * plugin and the template.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Plugin, type Runtime } from '@weft/core';
import { afterEach, describe, expect, it } from 'vitest';
import { errorOf, makeRuntime } from './fixtures.js';

const directories: string[] = [];
afterEach(async () => {
  await Promise.all(
    directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })),
  );
});

async function templateDirectory(files: Record<string, string>): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'weft-plugin-templates-'));
  directories.push(directory);
  for (const [name, source] of Object.entries(files)) {
    await writeFile(join(directory, name), source);
  }
  return directory;
}

/** Loads its templates from a directory when the runtime starts it. */
class DigestPlugin extends Plugin {
  readonly id = 'digest';
  readonly description = 'Writes digests.';

  constructor(private readonly directory: string) {
    super();
  }

  override async init(runtime: Runtime): Promise<void> {
    await runtime.prompts.loadDirectory(this.id, this.directory);
  }
}

describe("a plugin's .liquid files", () => {
  it('are registered under its id by loadDirectory in its init [claim:liq-plugin-files]', async () => {
    const directory = await templateDirectory({ 'daily.liquid': 'Digest for {{ reader }}' });
    const { runtime } = await makeRuntime({ plugins: [new DigestPlugin(directory)] });
    await runtime.start();
    expect(await runtime.prompts.render('digest/daily', { reader: 'Ada' })).toBe('Digest for Ada');
  });

  it('fail the start, naming the plugin, when one does not parse [claim:liq-plugin-files]', async () => {
    const directory = await templateDirectory({ 'daily.liquid': 'Digest {% if %}' });
    const { runtime } = await makeRuntime({ plugins: [new DigestPlugin(directory)] });
    const error = await errorOf(runtime.start());
    expect(error.code).toBe('WEFT_START_FAILED');
    expect(error.message).toContain('plugin "digest" failed to initialise');
    expect(error.message).toContain('template "digest/daily" does not parse');
  });
});
