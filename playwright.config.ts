import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumPath, sitePort, siteUrl } from './tests/e2e/support/browser';

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  // One retry on CI, where the machine is shared; a test that needs it is reported as flaky.
  retries: process.env.CI ? 1 : 0,
  // The HTML report (playwright-report/) is what CI uploads when a browser test fails.
  reporter: [['list'], ['html', { open: 'never' }]],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    ...devices['Desktop Chrome'],
    baseURL: siteUrl,
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
  webServer: {
    // The production build, served the way `npm run serve` serves it.
    command: `npx docusaurus serve --port ${sitePort} --host 127.0.0.1 --no-open`,
    url: `${siteUrl}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
