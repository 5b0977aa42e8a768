import { PostgresSpaceCoordinator } from '@weft/coordinator-postgres';
import {
  Runtime,
  type MemoryProvider,
  type ModelProvider,
  type Plugin,
} from '@weft/core';
import { PostgresMemoryProvider } from '@weft/memory-postgres';

/**
 * Starts one instance of the group. Every instance runs this same code with the same
 * DATABASE_URL; each gets its own coordinator, connections and scheduler.
 */
export async function startInstance(parts: {
  databaseUrl: string;
  models: ModelProvider[];
  plugins: Plugin[];
  /** Where memories go; by default PostgreSQL, so every instance sees every space's history. */
  memory?: MemoryProvider;
  /** The rest of the configuration, as for a single instance. */
  options?: Parameters<typeof Runtime.init>[0]['options'];
}): Promise<Runtime> {
  const coordinator = new PostgresSpaceCoordinator({
    connectionString: parts.databaseUrl,
  });
  const runtime = await Runtime.init({
    models: parts.models,
    memory:
      parts.memory ??
      new PostgresMemoryProvider({ connectionString: parts.databaseUrl }),
    plugins: parts.plugins,
    coordinator,
    options: parts.options,
  });
  await runtime.start();
  return runtime;
}

/**
 * A webhook's handler: it answers 202 once PostgreSQL has recorded the task, not when the task
 * has run. From then on the task runs even if this instance dies.
 */
export async function acceptWebhook(
  runtime: Runtime,
  ticket: string,
  text: string,
): Promise<{ status: 202; taskId: string }> {
  const { taskId } = await runtime.accept({
    pluginId: 'support',
    triggerId: 'webhook',
    space: `ticket-${ticket}`,
    message: text,
  });
  return { status: 202, taskId };
}
