/**
 * Benchmark of the docs MCP server over streamable HTTP: `search_docs` calls per second, and
 * their latency (p50, p99), from `--concurrency` clients at once, `--requests` calls in all,
 * against `startHttpServer` on 127.0.0.1 in this process. Each call is a plain JSON-RPC POST, as
 * a stateless client sends it. The rate and connection limits are raised for the run, so they do
 * not cap what is measured.
 *
 * Run with `npm run bench -- mcp-docs` (a few seconds once the bundle exists); `--requests`,
 * `--concurrency` and `--data <bundle file>` change it. Without `--data` it uses the package's
 * built bundle, or generates one into a temporary folder first (a minute or two; it needs the
 * site build, `npm run build`, whose Markdown copies are the bundle's pages). It prints
 * figures, stops by itself and always exits 0: timings depend on the machine, so nothing here
 * is asserted.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { DEFAULT_BUNDLE_FILE, loadDocsBundle, startHttpServer } from '@weft/mcp-docs';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '400' },
    concurrency: { type: 'string', default: '8' },
    data: { type: 'string' },
  },
});
const REQUESTS = positive('requests', values.requests);
const CONCURRENCY = positive('concurrency', values.concurrency);
const QUERIES = ['graceful shutdown', 'Runtime', 'memory provider', 'getObject schema', 'plugin'];

function positive(name: string, text: string | undefined): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`--${name} must be a whole number of at least 1, got "${text}"`);
  }
  return value;
}

async function bundleFile(): Promise<string> {
  if (values.data !== undefined) return values.data;
  if (existsSync(DEFAULT_BUNDLE_FILE)) return DEFAULT_BUNDLE_FILE;
  const out = join(await mkdtemp(join(tmpdir(), 'weft-bench-mcp-docs-')), 'docs-bundle.json');
  const packageDir = fileURLToPath(new URL('../packages/mcp-docs/', import.meta.url));
  process.stdout.write(`No built bundle; generating one into ${out}...\n`);
  await promisify(execFile)(
    process.execPath,
    [
      '--conditions=weft-source',
      '--import',
      'tsx',
      join(packageDir, 'scripts', 'generate-data.ts'),
      '--out',
      out,
    ],
    { cwd: packageDir, timeout: 600_000 },
  );
  return out;
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

async function main(): Promise<void> {
  const bundle = await loadDocsBundle(await bundleFile());
  const server = await startHttpServer(bundle, {
    requestsPerSecond: 1_000_000,
    // A client's pool may open a connection before the server has seen an old one close.
    connectionsPerClient: 1_000,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const call = async (id: number): Promise<void> => {
    const started = performance.now();
    const response = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'search_docs', arguments: { query: QUERIES[id % QUERIES.length] } },
      }),
    });
    const text = await response.text();
    latencies.push(performance.now() - started);
    if (response.status !== 200 || !text.includes('path:')) failures += 1;
  };
  try {
    // One call first, so that the search index (built on first use) is not in the figures.
    await call(-1);
    latencies.length = 0;
    failures = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < REQUESTS) {
          next += 1;
          await call(next);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const sorted = [...latencies].sort((a, b) => a - b);
    process.stdout.write(
      [
        `search_docs over HTTP: ${REQUESTS} calls, ${CONCURRENCY} at once, ${bundle.pages.length} pages`,
        `  ${(REQUESTS / seconds).toFixed(1)} requests per second`,
        `  latency p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms`,
        `  failed: ${failures}`,
        '',
      ].join('\n'),
    );
  } finally {
    await server.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
