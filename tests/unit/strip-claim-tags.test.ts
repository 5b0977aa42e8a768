import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module the package builds run with node, without declarations.
import { stripClaimTags } from '../../packages/strip-claim-tags.mjs';

const strip = stripClaimTags as (text: string) => string;

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

  it('leaves a declaration without claim ids as it was', () => {
    const declaration =
      '/** Claims are checked. See `@claims` in the guide. */\ndeclare const x: 1;\n';
    expect(strip(declaration)).toBe(declaration);
  });
});
