/**
 * Checks that the Postgres tests have a server to start: Debian's PostgreSQL binaries under
 * /usr/lib/postgresql/<major>/bin, or the folder named by PG_BIN. It only looks: installing system
 * packages belongs to the machine's set-up (`.ci/run` does it on CI), not to a test hook that runs
 * on every contributor's machine, so when they are missing it stops with one line naming the
 * package and the command that installs it. The tests start their own server; nothing runs here.
 */
import { findPostgresBin } from '@weft-internal/test-support/postgres-server';

try {
  findPostgresBin();
} catch {
  const where = process.env.PG_BIN
    ? `PG_BIN (${process.env.PG_BIN}) holds no initdb and pg_ctl`
    : 'no initdb and pg_ctl under /usr/lib/postgresql/*/bin';
  console.error(
    `No PostgreSQL server for the tests (${where}): install Debian's postgresql package with ` +
      '`sudo apt-get install -y postgresql`, or set PG_BIN to the folder holding initdb and pg_ctl.',
  );
  process.exit(1);
}
