/**
 * tooling/children-cpu.ts: the processor time `npm test` prints for each phase is that of the
 * phase's command and all it waited for, counted by a runner whose only child the command is.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { CPU_FILE_ENV, machineCpuTicks } from '../../tooling/children-cpu';

const root = path.resolve(__dirname, '../..');
const scratch = mkdtempSync(path.join(tmpdir(), 'weft-children-cpu-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A Node.js program that spends `seconds` of processor time in a child of its own. */
const burnInGrandchild = (seconds: number): string =>
  `require('node:child_process').spawnSync(process.execPath, ['-e', 'while (process.cpuUsage().user < ${seconds * 1e6}) {}'])`;

it.runIf(process.platform === 'linux')(
  'leaves the processor time of the command and what it waited for in the named file, and passes its exit status on [claim:cg-test-cpu-minutes]',
  () => {
    const file = path.join(scratch, 'seconds');
    const result = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'tooling/children-cpu.ts',
        process.execPath,
        '-e',
        `${burnInGrandchild(0.4)}; process.exit(3)`,
      ],
      { cwd: root, env: { ...process.env, [CPU_FILE_ENV]: file }, timeout: 60_000 },
    );
    expect(result.status).toBe(3);
    const seconds = Number(readFileSync(file, 'utf8'));
    expect(seconds).toBeGreaterThanOrEqual(0.38);
    expect(seconds).toBeLessThan(5);
  },
);

it.runIf(process.platform === 'linux')(
  "reads the machine's busy and total processor time, which grow as a process works [claim:cg-test-cpu-minutes]",
  () => {
    const before = machineCpuTicks();
    const end = process.cpuUsage().user + 200_000;
    while (process.cpuUsage().user < end) {
      // Busy for 0.2 s of processor time.
    }
    const after = machineCpuTicks();
    expect(before && after).toBeTruthy();
    // At least 0.2 s more busy time, in ticks of 1/100 s or finer.
    expect((after?.busy ?? 0) - (before?.busy ?? 0)).toBeGreaterThanOrEqual(15);
    expect((after?.total ?? 0) - (before?.total ?? 0)).toBeGreaterThanOrEqual(
      (after?.busy ?? 0) - (before?.busy ?? 0),
    );
  },
);
