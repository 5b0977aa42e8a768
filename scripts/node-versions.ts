/**
 * The Node.js versions Weft supports, and the ones `npm run test:node-versions` adds to the
 * machine's own. Every package.json's `engines` is SUPPORTED_NODE_RANGE (tests/unit checks it),
 * and every major in it is one the tests run on: the machine's (CI's Debian image: 20) and the
 * majors below, whose binaries come from the `node` package on the npm registry.
 */
export const SUPPORTED_NODE_RANGE = '^20.19.0 || ^22.12.0 || ^24.0.0';

/** The majors `test:node-versions` installs and runs the tests on. */
export const EXTRA_TESTED_NODE_MAJORS = [22, 24] as const;

/** The majors a range written as `^a.b.c || ^d.e.f` admits. */
export function majorsOfRange(range: string): number[] {
  return range.split('||').map((part) => {
    const match = /^\s*\^(\d+)\.\d+\.\d+\s*$/.exec(part);
    if (!match) throw new Error(`engines range part "${part.trim()}" is not ^major.minor.patch`);
    return Number(match[1]);
  });
}

/** Whether a version such as "22.12.0" (or "v22.12.0") is in a range written as above. */
export function satisfiesRange(version: string, range: string): boolean {
  const [major = NaN, minor = NaN, patch = NaN] = version.replace(/^v/, '').split('.').map(Number);
  return range.split('||').some((part) => {
    const [low = NaN, lowMinor = NaN, lowPatch = NaN] = part.trim().slice(1).split('.').map(Number);
    if (major !== low) return false;
    return minor > lowMinor || (minor === lowMinor && patch >= lowPatch);
  });
}

/** The environment variable that tells the tests which Node.js major they must be running on. */
export const EXPECTED_NODE_MAJOR_ENV = 'WEFT_EXPECT_NODE_MAJOR';
