/**
 * Serves a built site as a static host serves it to readers, for the benchmarks: the test
 * suite's server (tests/e2e/support/static-server.ts: `docusaurus serve`'s URL rules) with gzip,
 * which `docusaurus serve` leaves out. Without it a benchmark counts bytes no reader downloads: a
 * long page's uncompressed HTML (Getting started: 616 KB, 42 KB gzipped) dominated Lighthouse's
 * simulated slow network, while the stock site's short guide barely felt it.
 *
 * Run: tsx bench/support/static-server.ts <build dir> <port>
 */
import { startStaticServer } from '../../tests/e2e/support/static-server';

const [dir, portText] = process.argv.slice(2);
const port = Number(portText);
if (dir === undefined || !Number.isInteger(port) || port <= 0) {
  console.error('Usage: tsx bench/support/static-server.ts <build dir> <port>');
  process.exit(2);
}
void startStaticServer({ dir, port, compress: true });
