/**
 * Version ranges in the words a reader reads: `^20.19.0 || ^22.12.0 || ^24.0.0` becomes
 * `20.19+, 22.12+, 24`. The ranges stay in the packages' package.json (the one source); the
 * plugins page shows these words. Only the forms the packages use are understood, and anything
 * else is refused, so a range the page would misstate fails the build instead. Browser-safe.
 */

const VERSION = /^(\d+)\.(\d+)\.(\d+)$/;
/** `20`, `20.19` or `20.19.0`: what may follow `>=`. */
const LOWER_BOUND = /^\d+(\.\d+){0,2}$/;

function parts(version: string): [number, number, number] | undefined {
  const match = VERSION.exec(version);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/**
 * One comparator set in words. A caret range allows what does not change its first non-zero
 * number, so `^20.19.0` is 20.19 and later 20.x ("20.19+"), `^24.0.0` all of 24 ("24"), and
 * `^0.1.0` all of 0.1 ("0.1"). An exact version is itself; `>=` is "and later".
 */
function describeOne(range: string): string | undefined {
  if (range === '*') return 'any version';
  const exact = parts(range);
  if (exact) return range;
  if (range.startsWith('>=')) {
    const from = range.slice(2).trim();
    return LOWER_BOUND.test(from) ? `${from} and later` : undefined;
  }
  if (!range.startsWith('^')) return undefined;
  const caret = parts(range.slice(1));
  if (!caret) return undefined;
  const [major, minor, patch] = caret;
  if (major > 0) {
    if (minor === 0 && patch === 0) return `${major}`;
    return patch === 0 ? `${major}.${minor}+` : `${major}.${minor}.${patch}+`;
  }
  if (minor > 0) return patch === 0 ? `0.${minor}` : `0.${minor}.${patch}+`;
  // ^0.0.z allows only 0.0.z.
  return `0.0.${patch}`;
}

/**
 * `range` in words, its alternatives (`||`) joined by commas; undefined for a form this does not
 * understand (hyphen ranges, `~`, `x` wildcards, several comparators in one alternative).
 */
export function describeRange(range: string): string | undefined {
  const words = range.split('||').map((alternative) => describeOne(alternative.trim()));
  return words.every((word) => word !== undefined) ? words.join(', ') : undefined;
}
