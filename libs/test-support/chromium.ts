/**
 * How tests and benches reach a browser: Debian's Chromium by default, or any Chromium-family
 * browser named by CHROMIUM_PATH (hosted CI runners ship Google Chrome). Playwright never
 * downloads a browser of its own here.
 */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-background-networking'];
