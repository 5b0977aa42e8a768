/**
 * How the browser tests reach a browser: Debian's Chromium by default, or any Chromium-family
 * browser named by CHROMIUM_PATH (hosted CI runners ship Google Chrome). Playwright never
 * downloads a browser of its own here.
 */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/**
 * The production build is served here for the whole run (see playwright.config.ts). E2E_PORT
 * moves it, so two checkouts on one machine do not test each other's build.
 */
export const sitePort = Number(process.env.E2E_PORT ?? 4173);
export const siteUrl = `http://127.0.0.1:${sitePort}`;
