import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stripClaimTags } from '../../packages/strip-claim-tags.mjs';

const strip = (text: string): string => stripClaimTags(text);

describe('stripClaimTags, run on the type declarations of every package build', () => {
  it('drops each @claim line and keeps the rest of the comment [claim:contrib-claim-tag-not-shipped]', () => {
    const declaration = [
      'interface Options {',
      '    /**',
      '     * Most steps one task may run. Default 10.',
      '     * @claim runtime-default-max-steps',
      '     * @claim runtime-max-steps-refused',
      '     */',
      '    maxSteps?: number;',
      '}',
      '',
    ].join('\n');
    expect(strip(declaration)).toBe(
      [
        'interface Options {',
        '    /**',
        '     * Most steps one task may run. Default 10.',
        '     */',
        '    maxSteps?: number;',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('drops a comment that held only claim ids, on one line or several', () => {
    const declaration = [
      'declare const ERRORS: {',
      '    /** @claim errors-not-found */',
      '    readonly WEFT_NOT_FOUND: string;',
      '    /**',
      '     * @claim errors-invalid',
      '     */',
      '    readonly WEFT_INVALID: string; /** @claim errors-inline */',
      '};',
      '',
    ].join('\n');
    expect(strip(declaration)).toBe(
      [
        'declare const ERRORS: {',
        '    readonly WEFT_NOT_FOUND: string;',
        '    readonly WEFT_INVALID: string;',
        '};',
        '',
      ].join('\n'),
    );
  });

  it("strips the declarations in dist/ when a package's build runs it, in a folder whose path has a space [claim:contrib-claim-tag-not-shipped]", () => {
    const scratch = mkdtempSync(path.join(tmpdir(), 'weft strip claims '));
    try {
      // The layout of the repository: packages/strip-claim-tags.mjs beside packages/<name>/.
      copyFileSync(
        path.join(__dirname, '../../packages/strip-claim-tags.mjs'),
        path.join(scratch, 'strip-claim-tags.mjs'),
      );
      const dist = path.join(scratch, 'a package', 'dist');
      mkdirSync(path.join(dist, 'sub'), { recursive: true });
      const declaration =
        '/**\n * Most steps.\n * @claim some-id\n */\nexport declare const a: 1;\n';
      writeFileSync(path.join(dist, 'index.d.ts'), declaration);
      writeFileSync(path.join(dist, 'sub', 'index.d.cts'), declaration);
      execFileSync(process.execPath, ['../strip-claim-tags.mjs'], {
        cwd: path.join(scratch, 'a package'),
      });
      const stripped = '/**\n * Most steps.\n */\nexport declare const a: 1;\n';
      expect(readFileSync(path.join(dist, 'index.d.ts'), 'utf8')).toBe(stripped);
      expect(readFileSync(path.join(dist, 'sub', 'index.d.cts'), 'utf8')).toBe(stripped);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('leaves a declaration without claim ids as it was', () => {
    const declaration =
      '/** Claims are checked. See `@claims` in the guide. */\ndeclare const x: 1;\n';
    expect(strip(declaration)).toBe(declaration);
  });
});
