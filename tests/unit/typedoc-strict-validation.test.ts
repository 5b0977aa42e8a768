/**
 * libs/docs-model/typedoc.ts: the API reference's build fails on TypeDoc's warnings. A `{@link}`
 * that does not resolve, or a type the public API uses without exporting it, is reported by
 * TypeDoc with the symbol's name, and `strictValidation` then throws before any page is written;
 * under watch mode (the dev server) it only reports.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Application, LogLevel } from 'typedoc';
import { afterAll, describe, expect, it } from 'vitest';
import { strictValidation, typedocOptions } from '@weft-internal/docs-model/typedoc';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'weft-typedoc-strict-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Converts one source file with the site's validation settings; answers what TypeDoc said and how generation ended. */
async function generate(
  name: string,
  source: string,
  watch = false,
): Promise<{ messages: string[]; failure: string | undefined }> {
  const dir = path.join(scratch, name);
  const out = path.join(dir, 'out.json');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'index.ts'), source);
  // TypeDoc names where an unexported type is defined by its package, and skips one it cannot place.
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0' }));
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true }, files: ['index.ts'] }),
  );
  const app = await Application.bootstrapWithPlugins({
    entryPoints: [path.join(dir, 'index.ts')],
    tsconfig: path.join(dir, 'tsconfig.json'),
    name: 'fixture',
    disableSources: true,
    logLevel: 'Warn',
    treatWarningsAsErrors: typedocOptions.treatWarningsAsErrors,
    validation: typedocOptions.validation,
    watch,
  });
  const messages: string[] = [];
  // Kept as well as counted: the counts are what strictValidation reads.
  const log = app.logger.log.bind(app.logger);
  app.logger.log = (message, level) => {
    if (level >= LogLevel.Warn) messages.push(String(message));
    log(message, level);
  };
  strictValidation(app);
  const project = await app.convert();
  if (project === undefined) throw new Error('TypeDoc converted nothing');
  try {
    await app.generateJson(project, out);
    return { messages, failure: undefined };
  } catch (error) {
    return { messages, failure: error instanceof Error ? error.message : String(error) };
  }
}

describe("the API reference's TypeDoc validation", () => {
  it('is the plugin the site hands TypeDoc, with warnings as errors', () => {
    expect(typedocOptions.plugin).toContain(strictValidation);
    expect(typedocOptions.treatWarningsAsErrors).toBe(true);
    expect(typedocOptions.validation).toMatchObject({ notExported: true, invalidLink: true });
  });

  it('fails the build on a {@link} that does not resolve, with TypeDoc naming it [claim:cg-typedoc-warnings-fail-build] [claim:cg-tsdoc-broken-link-fails]', async () => {
    const { messages, failure } = await generate(
      'broken-link',
      '/** Starts, then calls {@link NoSuchHelper}. */\nexport function start(): void {}\n',
    );
    expect(messages.some((message) => message.includes('NoSuchHelper'))).toBe(true);
    expect(failure).toMatch(/warnings count as errors/);
  }, 60_000);

  it('fails the build on a type the public API uses without exporting it, with TypeDoc naming it [claim:cg-typedoc-warnings-fail-build]', async () => {
    const { messages, failure } = await generate(
      'not-exported',
      [
        'interface HiddenOptions { retries: number }',
        '/** Starts with the options given. */',
        'export function start(options: HiddenOptions): number { return options.retries; }',
        '',
      ].join('\n'),
    );
    expect(messages.some((message) => message.includes('HiddenOptions'))).toBe(true);
    expect(failure).toMatch(/warnings count as errors/);
  }, 60_000);

  it('passes a comment whose links resolve, and under watch only reports', async () => {
    const clean = await generate(
      'clean',
      '/** Starts, then calls {@link stop}. */\nexport function start(): void {}\n/** Stops. */\nexport function stop(): void {}\n',
    );
    expect(clean).toEqual({ messages: [], failure: undefined });
    const watched = await generate(
      'watched',
      '/** Starts, then calls {@link NoSuchHelper}. */\nexport function start(): void {}\n',
      true,
    );
    expect(watched.messages.some((message) => message.includes('NoSuchHelper'))).toBe(true);
    expect(watched.failure).toBeUndefined();
  }, 60_000);
});
