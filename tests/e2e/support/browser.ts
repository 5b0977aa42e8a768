// The Chromium launcher is shared with the benches and package tests; it lives in libs/test-support.
export { chromiumArgs, chromiumPath } from '@weft-internal/test-support/chromium';

/**
 * The production build is served here for the whole run (see playwright.config.ts). Outside CI
 * a server already on the port is reused, so when several clones run their browser tests at
 * once, give each its own E2E_PORT or a test may run against another clone's build.
 */
function readPort(raw: string | undefined): number {
  if (raw === undefined || raw === '') {
    return 4173;
  }
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1024 || port > 65535) {
    throw new Error(`E2E_PORT: expected a port number from 1024 to 65535, got "${raw}"`);
  }
  return port;
}

export const sitePort = readPort(process.env.E2E_PORT);
export const siteUrl = `http://127.0.0.1:${sitePort}`;
