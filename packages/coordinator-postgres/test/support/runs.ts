/** Checks on the runs table the work agent writes: overlaps and order within a space. */

/** One run of a task, as the work agent recorded it. */
export interface RunRow {
  task_id: string;
  space: string;
  n: number;
  instance: string;
  started_at: Date;
  ended_at: Date | null;
}

/**
 * Pairs of runs of one space that overlapped in time: a run started before the previous one
 * (by start time) ended. A run that never ended (its process was killed) counts as lasting
 * until `cutOff`.
 */
export function overlaps(runs: readonly RunRow[], cutOff: Date): [RunRow, RunRow][] {
  const found: [RunRow, RunRow][] = [];
  const bySpace = new Map<string, RunRow[]>();
  for (const run of runs) bySpace.set(run.space, [...(bySpace.get(run.space) ?? []), run]);
  for (const list of bySpace.values()) {
    list.sort((a, b) => a.started_at.getTime() - b.started_at.getTime());
    for (let i = 1; i < list.length; i += 1) {
      const previous = list[i - 1] as RunRow;
      const current = list[i] as RunRow;
      const previousEnd = previous.ended_at ?? cutOff;
      if (current.started_at.getTime() < previousEnd.getTime()) found.push([previous, current]);
    }
  }
  return found;
}

/** Spaces whose runs, by start time, go back to a lower `n`: a task ran before an earlier one. */
export function outOfOrder(runs: readonly RunRow[]): string[] {
  const bySpace = new Map<string, RunRow[]>();
  for (const run of runs) bySpace.set(run.space, [...(bySpace.get(run.space) ?? []), run]);
  return [...bySpace.entries()]
    .filter(([, list]) => {
      const ns = [...list]
        .sort((a, b) => a.started_at.getTime() - b.started_at.getTime())
        .map((run) => run.n);
      return ns.some((n, i) => i > 0 && n < (ns[i - 1] as number));
    })
    .map(([space]) => space);
}
