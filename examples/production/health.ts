import type { Runtime } from '@weft/core';

/**
 * Two probes for a process supervisor or load balancer, added to the runtime's
 * express app before `start()`:
 *
 * - `GET /healthz` (liveness) answers 200 while the process can serve HTTP at all;
 * - `GET /readyz` (readiness) answers 200 only while the runtime is running and
 *   its memory store answers, and 503 otherwise, so traffic moves elsewhere
 *   during a restart.
 *
 * Neither asks the model provider: a probe every few seconds would otherwise
 * turn into a stream of paid or slow requests.
 */
export function addHealthRoutes(runtime: Runtime): void {
  runtime.server.app.get('/healthz', (_request, response) => {
    response.json({ status: 'ok' });
  });
  runtime.server.app.get('/readyz', async (_request, response) => {
    const ready =
      runtime.status === 'running' &&
      (await runtime.memory.provider.checkHealth());
    response
      .status(ready ? 200 : 503)
      .json({ status: ready ? 'ready' : 'not ready' });
  });
}
