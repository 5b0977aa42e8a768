import { PostgresSpaceCoordinator } from '@weft/coordinator-postgres';
import {
  Runtime,
  type MemoryProvider,
  type ModelProvider,
  type Plugin,
} from '@weft/core';

/**
 * Starts one instance of the group. Every instance runs this same code with the same
 * DATABASE_URL; each gets its own coordinator, connections and scheduler.
 */
export async function startInstance(parts: {
  databaseUrl: string;
  models: ModelProvider[];
  memory: MemoryProvider;
  plugins: Plugin[];
}): Promise<Runtime> {
  const coordinator = new PostgresSpaceCoordinator({
    connectionString: parts.databaseUrl,
  });
  const runtime = await Runtime.init({
    models: parts.models,
    memory: parts.memory,
    plugins: parts.plugins,
    coordinator,
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
