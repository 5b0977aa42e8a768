/** The README's table of errors, against the registry the errors reference is generated from. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { TESTING_ERRORS } from '../src/errors.js';

describe('the README of @weft/testing', () => {
  it('lists every code of the package in its Errors table, and no other [claim:tst-errors] [claim:tst-readme-invalid-options]', async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.split('\n## Errors\n')[1]?.split('\n## ')[0] ?? '';
    const listed = [...section.matchAll(/^\| `(WEFT_TESTING_[A-Z_]+)` *\|/gm)].map(
      (match) => match[1],
    );
    expect(listed.sort()).toEqual(Object.keys(TESTING_ERRORS.codes).sort());
  });
});
