/**
 * tooling/children-cpu.ts: the processor time `npm test` prints for each phase is the time of
 * the child that ran it, counted when the child ends.
 */
import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { cpuShares, endedChildrenCpuSeconds } from '../../tooling/children-cpu';

/** Runs a child Node.js that spends `seconds` of processor time, and waits for it. */
function burn(seconds: number): void {
  const script = `const end = ${seconds * 1e6}; while (process.cpuUsage().user < end) {}`;
  const result = spawnSync(process.execPath, ['-e', script], { timeout: 60_000 });
  expect(result.status).toBe(0);
}

it.runIf(process.platform === 'linux')(
  "counts each ended child's processor time once, to the share taken after it ends [claim:cg-test-cpu-minutes]",
  () => {
    expect(endedChildrenCpuSeconds()).toBeGreaterThanOrEqual(0);
    const nextShare = cpuShares();
    burn(0.4);
    const first = nextShare() ?? 0;
    expect(first).toBeGreaterThanOrEqual(0.38);
    expect(first).toBeLessThan(5);
    // Nothing ended since: the next share is empty, the child is not counted twice.
    expect(nextShare()).toBe(0);
  },
);
