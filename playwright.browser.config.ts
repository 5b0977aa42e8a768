import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '@weft-internal/test-support/chromium';

// Browser tests of the packages themselves (tests/browser), apart from the site's (tests/e2e):
// each serves its own page, so none needs the site built.
export default defineConfig({
  testDir: 'tests/browser',
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  timeout: 60_000,
  use: {
    ...devices['Desktop Chrome'],
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
    // Recording a trace of every test costs about half as much processor time again as the
    // tests themselves: a failure keeps a screenshot, and its retry on CI records the trace.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    // A control that never becomes actionable fails its own step, naming it, well before the
    // test's timeout would end the test with no word of where it hung.
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
  },
});
