/**
 * The site's browser tests serve the production build themselves (playwright.config.ts): on
 * port 4173 unless E2E_PORT names another, and, outside CI, they reuse a server already on that
 * port, which is why two clones running them at once need a port each.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

async function configWith(env: Record<string, string>) {
  vi.resetModules();
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  const { default: config } = await import('../../playwright.config');
  const server = config.webServer;
  if (server === undefined || Array.isArray(server)) throw new Error('expected one webServer');
  return { server, baseURL: config.use?.baseURL };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

// Each configWith loads playwright.config and @playwright/test afresh: alone about 2 s, but on a
// loaded two-core machine the first test (two loads) took 14 s and once passed the 20 s default.
describe('the server of the browser tests', { timeout: 60_000 }, () => {
  it('serves the build on port 4173 and reuses a server already there, outside CI only [claim:cg-e2e-port]', async () => {
    const local = await configWith({ CI: '', E2E_PORT: '' });
    expect(local.server.command).toContain('docusaurus serve --port 4173 ');
    expect(local.baseURL).toBe('http://127.0.0.1:4173');
    expect(local.server.reuseExistingServer).toBe(true);
    const ci = await configWith({ CI: 'true', E2E_PORT: '' });
    expect(ci.server.reuseExistingServer).toBe(false);
  });

  it('serves it on the port E2E_PORT names [claim:cg-e2e-port]', async () => {
    const own = await configWith({ CI: '', E2E_PORT: '4391' });
    expect(own.server.command).toContain('docusaurus serve --port 4391 ');
    expect(own.baseURL).toBe('http://127.0.0.1:4391');
  });
});
