/**
 * The agent the reliability probe drives: one route trigger (`POST /probe`) that dispatches a
 * task into the space the body names, and one executor that records the request's id, waits
 * `delayMs` if asked, or hangs (ignoring its signal) when `hang` is set. Run on its own it
 * serves on a free port with SQLite memory and prints `listening <url>`, so the probe can kill it.
 */
import { Runtime, type Plugin } from '@weft/core';
import { SqliteMemoryProvider } from '@weft/memory-sqlite';
import { ScriptedModelProvider } from '@weft/testing';
import { hangWithTimer, pluginOf } from '@weft-internal/test-support/agent-parts';
import { pino } from 'pino';

interface ProbeBody {
  space: string;
  id: string;
  delayMs?: number;
  hang?: boolean;
}

const probePlugin = (): Plugin =>
  pluginOf({
    id: 'probe',
    description: 'Records probe requests.',
    executors: [
      {
        action: 'work',
        description: 'Records the request.',
        execute: async (task) => {
          const body = task.trigger.data as ProbeBody;
          if (body.hang) await hangWithTimer();
          if (body.delayMs) await new Promise((resolve) => setTimeout(resolve, body.delayMs));
          return { success: true, data: { id: body.id } };
        },
      },
    ],
    triggers: [
      {
        type: 'route',
        id: 'request',
        method: 'POST',
        path: '/probe',
        handler: async (request, response, runtime) => {
          const body = request.body as ProbeBody;
          const task = await runtime.dispatch({
            pluginId: 'probe',
            triggerId: 'request',
            space: body.space,
            data: body,
          });
          response.json({ id: body.id, taskId: task.id, status: task.status });
        },
      },
    ],
  });

/** Options of {@link createProbeAgent}. */
export interface ProbeAgentOptions {
  dbPath: string;
  concurrency?: number;
  maxQueueSize?: number;
  shutdownTimeoutMs?: number;
  handleSignals?: boolean;
}

/** Builds the probe agent (not started) around a SQLite file. */
export function createProbeAgent(options: ProbeAgentOptions): Promise<Runtime> {
  return Runtime.init({
    models: [
      new ScriptedModelProvider({ fallback: { steps: [{ pluginId: 'probe', action: 'work' }] } }),
    ],
    memory: new SqliteMemoryProvider({ path: options.dbPath }),
    plugins: [probePlugin()],
    options: {
      server: { port: 0 },
      scheduler: { concurrency: options.concurrency, maxQueueSize: options.maxQueueSize },
      shutdownTimeoutMs: options.shutdownTimeoutMs,
      handleSignals: options.handleSignals,
      logger: pino({ level: 'silent' }),
    },
  });
}

// Run as a program: `tsx probe/agent.ts <db path>`.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/.*\//, ''))) {
  const runtime = await createProbeAgent({
    dbPath: process.argv[2] ?? 'probe.db',
    concurrency: 8,
    shutdownTimeoutMs: 5_000,
    handleSignals: true,
  });
  await runtime.start();
  process.stdout.write(`listening ${runtime.server.url}\n`);
}
