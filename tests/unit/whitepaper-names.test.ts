import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { coreApiNames } from '../support/core-api';

/**
 * The whitepaper is prose, so it names the core's parts in two ways: as components in plain
 * words ("the model manager", "the capability registry") and, where it quotes code, as
 * identifiers. Both must name something the public API has, so a renamed or removed class turns
 * this test red instead of leaving the paper describing code that is gone.
 */
const whitepaper = readFileSync(path.join(__dirname, '../../whitepaper/whitepaper.md'), 'utf8');

/** Product and format names the paper may spell in camel case; none of them is core API. */
const properNouns = new Set(['TypeScript', 'JavaScript', 'OpenAI', 'vLLM', 'GitHub']);

const apiNames = new Set(Object.values(coreApiNames).flat());

/** Names of the public classes' methods and properties, static and on instances. */
async function memberNames(): Promise<Set<string>> {
  // A specifier in a variable keeps the site's type-check (which does not resolve workspace
  // sources) out of the core; vitest resolves it to the sources at run time.
  const specifier = '@weft/core';
  const core = (await import(specifier)) as Record<string, unknown>;
  return new Set(
    Object.values(core)
      .filter((value): value is { prototype?: object } => typeof value === 'function')
      .flatMap((value) => [
        ...Object.getOwnPropertyNames(value),
        ...Object.getOwnPropertyNames(value.prototype ?? {}),
      ]),
  );
}

const pascal = (words: string) =>
  words
    .split(' ')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

describe('the whitepaper names only what the core exports', () => {
  it('names components in words that match public classes', () => {
    const determiners = new Set(['the', 'a', 'an', 'its', 'this', 'that', 'each', 'every']);
    const phrases = [...whitepaper.matchAll(/\b(\w+) (manager|registry)\b/gi)]
      .filter((match) => !determiners.has(match[1]!.toLowerCase()))
      .map((match) => `${match[1]} ${match[2]}`.toLowerCase());
    // The paper describes the model manager, the capability registry and the server manager.
    expect(new Set(phrases).size).toBeGreaterThanOrEqual(3);
    const unknown = phrases.filter((phrase) => !coreApiNames.classes.includes(pascal(phrase)));
    expect(unknown).toEqual([]);
  });

  it('uses no code identifier, quoted or not, that the public API lacks', async () => {
    const members = await memberNames();
    expect(members).toContain('getObject');
    const quoted = [...whitepaper.matchAll(/`([A-Za-z_$][\w$.]*)(?:\(\))?`/g)].map(
      (match) => match[1]!,
    );
    // camelCase or PascalCase words with an inner capital: how identifiers look in prose.
    const bare = [...whitepaper.matchAll(/\b[A-Za-z][a-z]+[A-Z]\w*\b/g)].map((match) => match[0]);
    const unknown = [...quoted, ...bare]
      .flatMap((name) => name.split('.'))
      .filter((name) => !properNouns.has(name) && !apiNames.has(name) && !members.has(name));
    expect(unknown).toEqual([]);
  });

  it('states the provider selection order ModelManager implements [claim:mpi-selection-order] [claim:wp-routing]', () => {
    const paragraph = whitepaper.split('\n').find((line) => line.includes('routes each call'));
    expect(paragraph).toBeDefined();
    const order = ['named in the call', 'default provider', 'first configured provider', 'alias'];
    const positions = order.map((phrase) => paragraph!.indexOf(phrase));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });
});
