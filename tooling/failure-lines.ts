/**
 * The lines of a failed test phase's output that say what failed, for the end of `npm test`'s
 * log: CI keeps only a log's tail, and a failing unit test is reported minutes of output before
 * the last phase ends. Read from what Vitest and Playwright print with their default reporters.
 */
import { stripVTControlCharacters } from 'node:util';

/** At most this many lines per phase: a run whose every test fails still ends in a short recap. */
export const MAX_FAILURE_LINES = 40;

/** A line that names a failure by itself. */
const FAILURE_LINE = [
  // Vitest's list of failed tests, and its summary's counts.
  /^\s*FAIL\s/,
  /^\s*(Test Files|Tests)\s.*\bfailed\b/,
  /\bunhandled errors?\b/i,
  // A test marked failed as it ran (Vitest's verbose reporter, Playwright's list reporter).
  /^\s*[×✘]\s/,
  // Playwright's numbered failures and its summary's counts.
  /^\s+\d+\) (\[[^\]]+\] › )?\S+:\d+:\d+ › /,
  /^\s*\d+ (failed|flaky|interrupted|timed out)\b/,
];

/** Vitest's separators between reports, which say nothing by themselves. */
const SEPARATOR = /^[\s⎯─-]*$/;

/**
 * The failure lines of a phase's output, colours removed, each once (an error's line after every test it failed), in order. After Vitest's
 * `FAIL <test>` line comes the first line of its error (the assertion or the exception).
 */
export function failureLines(output: string): string[] {
  const lines = stripVTControlCharacters(output).split(/\r?\n/);
  const picked: string[] = [];
  const seen = new Set<string>();
  lines.forEach((line, index) => {
    if (!FAILURE_LINE.some((pattern) => pattern.test(line))) return;
    const trimmed = line.trimEnd();
    if (seen.has(trimmed)) return;
    seen.add(trimmed);
    picked.push(trimmed);
    if (!/^\s*FAIL\s/.test(line)) return;
    const error = lines.slice(index + 1).find((next) => !SEPARATOR.test(next));
    if (error !== undefined && !/^\s*FAIL\s/.test(error)) picked.push(`    ${error.trim()}`);
  });
  if (picked.length <= MAX_FAILURE_LINES) return picked;
  return [
    ...picked.slice(0, MAX_FAILURE_LINES),
    `(${picked.length - MAX_FAILURE_LINES} more lines of failures; the phase's whole output is above)`,
  ];
}
