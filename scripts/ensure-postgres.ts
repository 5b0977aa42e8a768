/**
 * Makes sure the Postgres tests have a server to start: Debian's PostgreSQL binaries under
 * /usr/lib/postgresql/<major>/bin, or the folder named by PG_BIN. On a Debian machine where we
 * are root it installs the `postgresql` package; anywhere else it stops with the command to run.
 * The tests start their own server in a temporary directory; nothing is started here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findPostgresBin } from '../tests/support/postgres-server';

function found(): boolean {
  try {
    findPostgresBin();
    return true;
  } catch {
    return false;
  }
}

if (found()) {
  process.exit(0);
}

const canInstall =
  !process.env.PG_BIN && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
if (!canInstall) {
  console.error(
    "No PostgreSQL server binaries under /usr/lib/postgresql/*/bin. Install Debian's PostgreSQL " +
      '(sudo apt-get install postgresql) or set PG_BIN to the folder holding initdb and pg_ctl, ' +
      'then run the tests again.',
  );
  process.exit(1);
}

console.log("No PostgreSQL server binaries; installing Debian's postgresql package.");
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
execFileSync('apt-get', ['install', '-y', '-qq', 'postgresql'], { stdio: 'inherit', env });
if (!found()) {
  console.error('apt-get installed postgresql, but no initdb and pg_ctl were found.');
  process.exit(1);
}
