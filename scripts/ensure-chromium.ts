/**
 * Makes sure the browser tests have a browser: Debian's Chromium at /usr/bin/chromium, or the
 * Chromium-family browser named by CHROMIUM_PATH. On a Debian machine where we are root it installs
 * the `chromium` package; anywhere else it stops with the command to run. It never downloads a
 * browser build of its own.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromiumPath } from '../tests/e2e/support/browser';

function run(command: string, args: string[]): void {
  execFileSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

if (existsSync(chromiumPath)) {
  process.exit(0);
}

const canInstall =
  !process.env.CHROMIUM_PATH && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
if (!canInstall) {
  console.error(
    `No browser at ${chromiumPath}. Install Debian's Chromium (sudo apt-get install chromium) ` +
      'or set CHROMIUM_PATH to a Chromium-family browser, then run the tests again.',
  );
  process.exit(1);
}

console.log(`No browser at ${chromiumPath}; installing Debian's chromium package.`);
run('apt-get', ['update', '-qq']);
run('apt-get', ['install', '-y', '-qq', 'chromium']);
if (!existsSync(chromiumPath)) {
  console.error(`apt-get installed chromium, but ${chromiumPath} still does not exist.`);
  process.exit(1);
}
