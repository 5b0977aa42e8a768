/**
 * The plugin converts tools' input schemas with `z.fromJSONSchema`, which zod has from 4.2.0 on:
 * a range that admitted 4.1 would let npm pick a zod without it, and every connect would fail.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
};

describe("the package's zod range", () => {
  it('starts at a zod with z.fromJSONSchema (4.2.0) [claim:mcp-arguments-schema]', () => {
    const range = manifest.dependencies.zod ?? '';
    const [, major, minor] = /^\^(\d+)\.(\d+)\.\d+$/.exec(range) ?? [];
    expect({ major: Number(major), minorAtLeast2: Number(minor) >= 2 }).toEqual({
      major: 4,
      minorAtLeast2: true,
    });
    expect(typeof z.fromJSONSchema).toBe('function');
  });
});
