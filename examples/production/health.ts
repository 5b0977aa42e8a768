import type { Runtime } from '@weft/core';
import { serverOf } from '@weft/core/node';

/**
 * Two probes for a process supervisor or load balancer, added to the runtime's
 * express app before `start()`:
 *
 * - `GET /healthz` (liveness) answers 200 while the process can serve HTTP at all;
 * - `GET /readyz` (readiness) answers 200 only while the runtime is running and
 *   its memory store's `checkHealth()` answers `true` within `readyTimeoutMs`,
 *   and 503 otherwise (an answer of `false`, an error or no answer in time), so
 *   traffic moves elsewhere during a restart or an outage.
 *
 * Neither asks the model provider: a probe every few seconds would otherwise
 * turn into a stream of paid or slow requests.
 */
export function addHealthRoutes(
  runtime: Runtime,
  readyTimeoutMs = 2_000,
): void {
  const { app } = serverOf(runtime);
  app.get('/healthz', (_request, response) => {
    response.json({ status: 'ok' });
  });
  app.get('/readyz', async (_request, response) => {
    const ready =
      runtime.status === 'running' &&
      (await storeAnswers(runtime, readyTimeoutMs));
    response
      .status(ready ? 200 : 503)
      .json({ status: ready ? 'ready' : 'not ready' });
  });
}

/** Whether the memory store says it is healthy in time; a hung store is not ready. */
async function storeAnswers(
  runtime: Runtime,
  timeoutMs: number,
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    const check = runtime.memory.provider.checkHealth().then(
      (healthy) => healthy === true,
      () => false,
    );
    return await Promise.race([check, late]);
  } catch {
    // A checkHealth that throws before returning a promise is not ready either.
    return false;
  } finally {
    clearTimeout(timer);
  }
}
