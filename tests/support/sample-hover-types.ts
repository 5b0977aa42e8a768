/**
 * What TypeScript says about an identifier of a sample file, read the way the site's build reads
 * it (src/remark/type-hovers/sample-types.ts), so tests compare the site with TypeScript instead
 * of with type text copied into the test.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sampleTypes, type TypeHover } from '../../src/remark/type-hovers/sample-types';

const siteDir = path.resolve(__dirname, '../..');

/** Every identifier's type in a sample, `file` relative to the site's root. */
export function sampleHoverTypes(file: string): { code: string; hovers: TypeHover[] } {
  const absolute = path.join(siteDir, file);
  const code = readFileSync(absolute, 'utf8');
  return { code, hovers: sampleTypes(code, absolute) };
}

/** The type TypeScript reports for the first occurrence of `identifier` in a sample. */
export function typeOfIdentifier(file: string, identifier: string): string {
  const { code, hovers } = sampleHoverTypes(file);
  const hover = hovers.find(
    ({ start, length }) => code.slice(start, start + length) === identifier,
  );
  if (!hover) {
    throw new Error(`TypeScript reports no type for "${identifier}" in ${file}`);
  }
  return hover.text;
}
