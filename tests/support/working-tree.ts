import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The files a commit of the checkout at `root` would hold, edits not committed yet included:
 * those git tracks and the new ones it does not ignore, less tracked files deleted from the
 * working tree. Paths are relative to `root`, with POSIX separators, in git's order.
 */
export function workingTreeFiles(root: string): string[] {
  return execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
    .split('\0')
    .filter((file) => file !== '' && existsSync(path.join(root, file)));
}
