/**
 * Installation, "Today: from a clone": the commands that add Weft to an existing project run as
 * the page shows them (without the build, which only fills dist/): the vendor folder is made
 * first (npm pack fails with ENOENT when its destination does not exist), and the tarballs the
 * install line names are the ones npm pack writes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readDoc } from './support/doc-tables';

const ROOT = join(__dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'weft-install-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The bash block that starts with `# in the clone` and packs the packages. */
function packBlock(): string[] {
  const blocks = [...readDoc('installation.md').matchAll(/```bash\n([\s\S]*?)```/g)].map(
    (match) => match[1] ?? '',
  );
  const block = blocks.find((text) => text.includes('--pack-destination'));
  if (block === undefined) throw new Error('installation.md has no npm pack block');
  return block.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
}

describe('installation: packing Weft into an existing project', () => {
  it('runs as written, and writes the tarballs the install line names [claim:install-pack-existing]', () => {
    const lines = packBlock().map((line) =>
      line.replaceAll('../my-project', `${scratch}/my-project`),
    );
    const install = lines.find((line) => line.startsWith('npm install ./vendor/'));
    expect(install).toBeDefined();
    for (const line of lines) {
      if (line.startsWith('npm run build') || line === install) continue;
      const [command, ...args] = line.split(' ');
      execFileSync(command!, args, { cwd: ROOT, stdio: 'pipe', timeout: 60_000 });
    }
    const tarballs = install!.split(' ').filter((word) => word.startsWith('./vendor/'));
    expect(tarballs.length).toBe(2);
    for (const tarball of tarballs) {
      expect(existsSync(join(scratch, 'my-project', tarball))).toBe(true);
    }
  });
});
