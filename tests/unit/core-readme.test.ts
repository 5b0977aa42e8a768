/**
 * The `options` row of packages/core/README.md's configuration table, held to the options
 * schema `Runtime.init` validates with: it names every option (and no other), every sub-option of
 * the object options it details, and shows the default the schema applies wherever it gives one. The README's claim ids are in the
 * titles of this and the other tests that guard them.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { RuntimeConfig } from '@weft/core';
import { optionsSchema } from '../../packages/core/src/runtime/options-schema';
import { majorsOfRange, SUPPORTED_NODE_RANGE } from '../../tooling/node-versions';

const README = path.resolve(__dirname, '../../packages/core/README.md');

/** One option as the README shows it: `name` (details). */
interface ShownOption {
  name: string;
  details: string | undefined;
}

/** Splits at commas outside parentheses. */
function topLevelParts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
    } else current += char;
  }
  parts.push(current.trim());
  return parts;
}

async function shownOptions(): Promise<ShownOption[]> {
  const row = (await readFile(README, 'utf8'))
    .split('\n')
    .find((line) => line.startsWith('| `options`'));
  if (row === undefined) throw new Error('the README has no options row');
  const cell = (row.split('|')[2] ?? '').trim();
  // The list ends at the first full stop outside the backticks: the link that follows is prose.
  const list = cell.slice(0, cell.indexOf('). ') + 1);
  return topLevelParts(list).map((part) => {
    const match = /^`(\w+)`(?: \((.*)\))?$/.exec(part);
    if (!match?.[1]) throw new Error(`cannot read the README's option "${part}"`);
    return { name: match[1], details: match[2] };
  });
}

/** The sub-options of an object option, past its `.default()` and `.optional()`. */
function subOptions(name: string): Record<string, z.ZodType> {
  let schema = (optionsSchema.shape as Record<string, z.ZodType>)[name];
  while (schema && (schema.def as { innerType?: z.ZodType }).innerType) {
    schema = (schema.def as { innerType?: z.ZodType }).innerType;
  }
  return schema?.def.type === 'object' ? (schema as z.ZodObject).shape : {};
}

function subOptionNames(name: string): string[] {
  return Object.keys(subOptions(name));
}

/**
 * The default the configuration reference shows for a sub-option the schema leaves unset but
 * the runtime fills in (`bulkhead.maxConcurrent`) or treats as off (`server.cors`); `none` means
 * it has none.
 */
function defaultLabel(name: string, sub: string): string | undefined {
  const label = subOptions(name)[sub]?.meta()?.defaultLabel;
  return typeof label === 'string' && label !== 'none' ? label : undefined;
}

/** Whether the README's words for a value show the schema's default. */
function shows(text: string, expected: unknown): boolean {
  const word = text.replace(/[`']/g, '').split(' ')[0];
  if (word === 'off') return expected === false;
  return word === String(expected);
}

/** Every field of `RuntimeConfig`: a new field fails the type check until it is listed. */
const CONFIG_FIELDS = {
  models: true,
  memory: true,
  plugins: true,
  capabilityAliases: true,
  coordinator: true,
  options: true,
} as const satisfies Record<keyof RuntimeConfig, true>;

describe('the core README', () => {
  it('has a row in its configuration table for every field of RuntimeConfig, the coordinator included [claim:core-readme-coordinator]', async () => {
    const readme = await readFile(README, 'utf8');
    const fields = readme
      .slice(readme.indexOf('## Configure'), readme.indexOf('## Example'))
      .split('\n')
      .map((line) => /^\| `(\w+)` +\|/.exec(line)?.[1])
      .filter((field) => field !== undefined);
    expect(fields.sort()).toEqual(Object.keys(CONFIG_FIELDS).sort());
    const row = readme.split('\n').find((line) => line.startsWith('| `coordinator`')) ?? '';
    expect(row).toContain('`PostgresSpaceCoordinator` from `@weft/coordinator-postgres`');
    const coordinatorPackage = await import('@weft/coordinator-postgres');
    expect(typeof coordinatorPackage.PostgresSpaceCoordinator).toBe('function');
  });

  it('names the Node.js majors the engines range admits, each with its minimum [claim:core-readme-node]', async () => {
    const readme = await readFile(README, 'utf8');
    const start = readme.indexOf('Node.js 22');
    // The sentence up to "still works": what follows is about Node.js 20's end of life.
    const sentence = readme.slice(start, readme.indexOf('still works', start));
    expect(start).toBeGreaterThan(-1);
    const named = [...sentence.matchAll(/\b(\d+)(?:\.(\d+))?\b/g)].map(([, major]) =>
      Number(major),
    );
    expect([...new Set(named)].sort()).toEqual(majorsOfRange(SUPPORTED_NODE_RANGE).sort());
    for (const part of SUPPORTED_NODE_RANGE.split('||')) {
      const [major, minor, patch] = part.trim().slice(1).split('.');
      expect(patch).toBe('0');
      // A major admitted from its first release is named alone; a later minimum is spelt out.
      if (minor === '0') expect(sentence).not.toMatch(new RegExp(`\\b${major}\\.\\d`));
      else expect(sentence).toContain(`${major}.${minor} or later`);
    }
  });

  const defaults = optionsSchema.parse({}) as Record<string, unknown>;

  it('names every option of the schema, and no other [claim:core-readme-options]', async () => {
    const names = (await shownOptions()).map((option) => option.name);
    expect(names.sort()).toEqual(Object.keys(optionsSchema.shape).sort());
  });

  it('shows the default the schema applies for each option it gives one for, and every sub-option of the options it details, with the default the runtime computes for one the schema leaves unset [claim:core-readme-options]', async () => {
    for (const { name, details } of await shownOptions()) {
      if (details === undefined || name === 'logger') continue;
      const expected = defaults[name];
      if (!details.startsWith('`') || /^`'/.test(details)) {
        expect(shows(details, expected), `${name} (${details})`).toBe(true);
        continue;
      }
      // An object option: all its sub-options, each `name` with its default when shown.
      const shownSubs: string[] = [];
      for (const sub of details.split(', ')) {
        const [, subName = '', value] = /^`(\w+)`(?: (.*))?$/.exec(sub) ?? [];
        const nested = expected as Record<string, unknown>;
        expect(subOptionNames(name), `${name}.${subName} is an option`).toContain(subName);
        shownSubs.push(subName);
        const label = nested[subName] === undefined ? defaultLabel(name, subName) : undefined;
        if (label !== undefined) {
          // A default the runtime computes is shown too: left out, it reads as no limit.
          expect(value?.replace(/`/g, ''), `${name}.${subName}`).toBe(label.replace(/`/g, ''));
        } else if (value !== undefined) {
          expect(shows(value, nested[subName]), `${name}.${subName} (${value})`).toBe(true);
        }
      }
      // A list that leaves one out reads as complete, so a reader would never learn of it.
      expect(shownSubs.sort(), `the sub-options of ${name}`).toEqual(subOptionNames(name).sort());
    }
  });
});
