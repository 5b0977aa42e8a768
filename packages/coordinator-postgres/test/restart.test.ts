/**
 * The PostgreSQL server restarts (pg_ctl stop -m fast, then start on the same port and data)
 * while two runtimes in this process take tasks over twelve spaces. Tasks are sent before,
 * during and after the outage. Each one that was acknowledged runs to its end (on either
 * instance); each one that was not was refused with a WEFT_COORDINATOR_* error and never runs;
 * no two runs of a space overlap and each space's runs keep the order of acknowledgement; and
 * both instances take work again without being restarted.
 */
import { WeftError } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../src/options.js';
import { reconnectDelay } from '../src/session.js';
import { outOfOrder, overlaps, type RunRow } from './support/runs.js';
import { useServer } from './support/server.js';
import { createRunsTable, startWorkAgent, type WorkAgent } from './support/work-agent.js';

const db = useServer();

const SPACES = 12;
/** Unsettled tasks a space's sender allows itself, so the queues stay those of a steady load. */
const IN_FLIGHT_PER_SPACE = 3;
const OUTAGE_MS = 1_500;

/**
 * When a task was sent: before the stop, while the server was down, while it was starting (the
 * instances may reconnect before `pg_ctl start` returns, so a task may go either way), after.
 */
type Phase = 'before' | 'during' | 'starting' | 'after';

interface Sent {
  id: string;
  space: string;
  n: number;
  agent: number;
  phase: Phase;
  /** Set when `accept` resolved: how the task's `done` promise settled. */
  settled?: Promise<string>;
  /** Set when `accept` rejected. */
  refusal?: { code: string; status: number | undefined };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(what: string, check: () => boolean | Promise<boolean>, ms: number) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    await sleep(50);
  }
}

describe('PostgresSpaceCoordinator across a PostgreSQL restart', () => {
  it('refuses work while the server is down, reconnects by itself, and loses, reorders or overlaps no task [claim:coord-readme-connection-lost] [claim:coord-readme-reconnect] [claim:httpchat-503-coordinator] [claim:prod-outage-coordinator] [claim:scaling-connection-lost] [claim:scaling-restart-gives-up] [claim:scaling-restart-tasks-still-run] [claim:scaling-restart-new-key] [claim:scaling-restart-takeover] [claim:scaling-restart-test] [claim:errors-503-sources] [claim:tsdoc-coordinator-reconnects] [claim:coord-readme-tests]', async () => {
    const schema = db.newSchema();
    await createRunsTable(db.sql, schema);
    const agents: WorkAgent[] = await Promise.all(
      [0, 1].map((index) =>
        startWorkAgent({
          connectionString: db.url(),
          schema,
          instance: `i${index}`,
          coordinator: { reconnectDelayMs: 100, reconnectMaxDelayMs: 1_000, sweepIntervalMs: 200 },
        }),
      ),
    );
    try {
      const keysBefore = agents.map((agent) => agent.coordinator.instance);
      const sent: Sent[] = [];
      let phase: Phase = 'before';
      let sending = true;
      const sendSpace = async (space: number): Promise<void> => {
        const unsettled: Promise<unknown>[] = [];
        for (let n = 0; sending; n += 1) {
          if (unsettled.length >= IN_FLIGHT_PER_SPACE) await unsettled.shift();
          const agent = (space + n) % 2;
          const entry: Sent = { id: `s${space}-n${n}`, space: `space-${space}`, n, agent, phase };
          sent.push(entry);
          try {
            const { done } = await (agents[agent] as WorkAgent).runtime.accept({
              pluginId: 'work',
              triggerId: 'task',
              space: entry.space,
              data: { n, ms: 5 + ((space * 7 + n * 13) % 20) },
              metadata: { requestId: entry.id },
            });
            entry.settled = done.then(
              (task) => `resolved ${task.status}`,
              (error: unknown) => `rejected ${WeftError.is(error) ? error.code : String(error)}`,
            );
            unsettled.push(entry.settled);
          } catch (error) {
            entry.refusal = WeftError.is(error)
              ? { code: error.code, status: error.status }
              : { code: String(error), status: undefined };
            await sleep(50);
          }
        }
      };
      const acked = (which: Phase, agent?: number) =>
        sent.filter(
          (entry) =>
            entry.settled &&
            entry.phase === which &&
            (agent === undefined || entry.agent === agent),
        ).length;
      const senders = Array.from({ length: SPACES }, (_, space) => sendSpace(space));

      await waitUntil('100 acknowledgements', () => acked('before') >= 100, 30_000);
      await db.server().stop('fast');
      phase = 'during';
      await sleep(OUTAGE_MS);
      // Every run the outage cut short ended by now: its task's signal was aborted at the stop.
      const restartedAt = new Date();
      phase = 'starting';
      await db.server().start();
      phase = 'after';
      const startedAt = Date.now();
      const backAfterMs: number[] = [];
      await waitUntil(
        'both instances reconnecting',
        async () => {
          for (const [index, agent] of agents.entries()) {
            if (backAfterMs[index] === undefined && (await agent.coordinator.checkHealth())) {
              backAfterMs[index] = Date.now() - startedAt;
            }
          }
          return backAfterMs.filter((ms) => ms !== undefined).length === agents.length;
        },
        // The backoff in this test is capped at 1 s; a busy machine may add a few seconds.
        10_000,
      );
      await waitUntil(
        'both instances acknowledging 20 tasks each after the restart',
        () => acked('after', 0) >= 20 && acked('after', 1) >= 20,
        60_000,
      );
      sending = false;
      await Promise.all(senders);

      // Refused tasks were refused with a coordinator error, as a 503; all sent while the
      // server was down were.
      const refused = sent.filter((entry) => entry.refusal);
      const during = sent.filter((entry) => entry.phase === 'during');
      expect(during.length).toBeGreaterThan(0);
      expect(during.filter((entry) => !entry.refusal)).toEqual([]);
      expect(
        refused.filter(
          (entry) =>
            !['WEFT_COORDINATOR_CONNECTION_LOST', 'WEFT_COORDINATOR_ADMIT_FAILED'].includes(
              entry.refusal?.code ?? '',
            ) || entry.refusal?.status !== 503,
        ),
      ).toEqual([]);

      // Every acknowledged task's promise settled: it finished here, was cut short here (and
      // runs elsewhere), or its wait failed with the coordinator's error.
      const outcomes = new Map<string, number>();
      const settledBy = Date.now() + 60_000;
      for (const entry of sent) {
        if (!entry.settled) continue;
        const outcome = await Promise.race([
          entry.settled,
          sleep(Math.max(0, settledBy - Date.now())).then(() => 'never settled'),
        ]);
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }
      expect(
        [...outcomes.keys()].filter(
          (outcome) =>
            ![
              'resolved completed',
              'resolved cancelled',
              'rejected WEFT_COORDINATOR_CONNECTION_LOST',
            ].includes(outcome),
        ),
      ).toEqual([]);

      // Every acknowledged task ran to its end, and the records of unfinished tasks are gone.
      const acknowledged = new Set(sent.filter((entry) => entry.settled).map((entry) => entry.id));
      let runs: RunRow[] = [];
      await waitUntil(
        'every acknowledged task finishing',
        async () => {
          runs = await db.sql<RunRow>(`SELECT * FROM "${schema}".runs ORDER BY started_at`);
          const finished = new Set(runs.filter((run) => run.ended_at).map((run) => run.task_id));
          const left = await db.sql(`SELECT ticket FROM "${schema}".tasks`);
          return left.length === 0 && [...acknowledged].every((id) => finished.has(id));
        },
        60_000,
      );
      const refusedIds = new Set(refused.map((entry) => entry.id));
      expect(runs.filter((run) => refusedIds.has(run.task_id))).toEqual([]);
      expect(overlaps(runs, restartedAt)).toEqual([]);
      expect(outOfOrder(runs)).toEqual([]);

      // Both reconnected by themselves, under new keys.
      for (const [index, agent] of agents.entries()) {
        expect(await agent.coordinator.checkHealth()).toBe(true);
        expect(agent.coordinator.instance).not.toBe(keysBefore[index]);
      }
      const cutShort = runs.filter((run) => run.ended_at === null).length;
      console.log(
        `restart: ${acknowledged.size} tasks acknowledged (${acked('before')} before the stop, ${acked('after')} after the start), ${refused.length} refused (${during.length} while the server was down); reconnected ${backAfterMs.join(' and ')} ms after the start; ${cutShort} runs cut short and run again; outcomes of done: ${JSON.stringify(Object.fromEntries(outcomes))}`,
      );
    } finally {
      await db.server().start();
      await Promise.all(agents.map((agent) => agent.stop()));
    }
  }, 180_000);
});

describe('reconnectDelay', () => {
  const options = { reconnectDelayMs: 500, reconnectMaxDelayMs: 30_000 };

  it('doubles from reconnectDelayMs up to reconnectMaxDelayMs, each wait between half and all of it [claim:coord-readme-reconnect] [claim:prod-outage-coordinator] [claim:scaling-restart-backoff]', () => {
    const ceilings = [500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000];
    ceilings.forEach((ceiling, attempt) => {
      expect(reconnectDelay(attempt, options, () => 0)).toBe(ceiling / 2);
      expect(reconnectDelay(attempt, options, () => 0.999_999)).toBe(ceiling);
    });
    expect(reconnectDelay(10_000, options, () => 0.5)).toBe(22_500);
  });

  it('is refused when the cap is below the first delay', () => {
    expect(() =>
      resolveOptions({
        connectionString: 'postgres://localhost/weft',
        reconnectDelayMs: 500,
        reconnectMaxDelayMs: 100,
      }),
    ).toThrow(/reconnectMaxDelayMs \(100\) must not be below reconnectDelayMs \(500\)/);
  });
});
