/**
 * The model and memory choices the command accepts, and their defaults, as the flags table of
 * this package's README shows them.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MEMORY, DEFAULT_MODEL, MEMORY_CHOICES, MODEL_CHOICES } from '../src/choices.js';

const README = path.join(__dirname, '../README.md');

/** The README table's row for a flag: its choices column and its default column. */
async function tableRow(flag: string): Promise<{ choices: string[]; fallback: string }> {
  const line = (await readFile(README, 'utf8'))
    // Claim ids (`<!-- claim: id -->`) are not part of what a reader sees.
    .replace(/[ \t]*<!--\s*claim:[\s\S]*?-->/g, '')
    .split('\n')
    .find((row) => row.startsWith(`| \`${flag}\``));
  if (line === undefined) throw new Error(`README has no table row for ${flag}`);
  const [, choices = '', fallback = ''] = line
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.trim());
  return {
    choices: [...choices.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? ''),
    fallback: fallback.replace(/`/g, ''),
  };
}

describe('the choices and defaults of the command', () => {
  it('of --model are the ones the README table lists [claim:create-weft-readme-model-flag] [claim:tsdoc-cw-model-choices]', async () => {
    expect(await tableRow('--model')).toEqual({
      choices: [...MODEL_CHOICES],
      fallback: DEFAULT_MODEL,
    });
  });

  it('of --memory are the ones the README table lists [claim:create-weft-readme-memory-flag] [claim:tsdoc-cw-memory-choices]', async () => {
    expect(await tableRow('--memory')).toEqual({
      choices: [...MEMORY_CHOICES],
      fallback: DEFAULT_MEMORY,
    });
  });
});
