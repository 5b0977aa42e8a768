/**
 * Checks that the browser tests have a browser: Debian's Chromium at /usr/bin/chromium, or the
 * Chromium-family browser named by CHROMIUM_PATH. It only looks: installing system packages
 * belongs to the machine's set-up (`.ci/run` does it on CI), not to a test hook that runs on every
 * contributor's machine, so when the browser is missing it stops with one line naming the package
 * and the command that installs it. It never downloads a browser build of its own.
 */
import { existsSync } from 'node:fs';
import { chromiumPath } from '@weft-internal/test-support/chromium';

if (!existsSync(chromiumPath)) {
  console.error(
    `No browser at ${chromiumPath} for the tests: install Debian's chromium package with ` +
      '`sudo apt-get install -y chromium`, or set CHROMIUM_PATH to a Chromium-family browser.',
  );
  process.exit(1);
}
