/**
 * What the side-by-side benchmarks (bench-site.ts, bench-interactive.ts) share: reading their
 * counts from the environment, generating the stock Docusaurus 3.10 site they compare against,
 * and serving a built site on a port.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CREATE_DOCUSAURUS = 'create-docusaurus@3.10.2';
const SERVER_START_DEADLINE_MS = 60_000;

export const siteDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** This site's page types, by path; each benchmark maps them to stock analogues. */
export const WEFT_PAGES = {
  home: '/',
  guide: '/docs/getting-started/',
  'API class': '/api/classes/Runtime/',
  'API index': '/api/',
  plugins: '/plugins/',
} as const;

/** The stock site's closest pages (it has no API reference or plugins page). */
export const STOCK_PAGES: Record<keyof typeof WEFT_PAGES, string> = {
  home: '/',
  guide: '/docs/intro/',
  'API class': '/docs/tutorial-basics/markdown-features/',
  'API index': '/docs/category/tutorial---basics/',
  plugins: '/markdown-page/',
};

export function positiveInteger(script: string, name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`${script}: ${name} must be a positive integer, got "${raw}"`);
  }
  return value;
}

/** The environment variable `name` as a whole number of at least 0; `fallback` when unset. */
export function nonNegativeInteger(script: string, name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${script}: ${name} must be a whole number (0 or more), got "${raw}"`);
  }
  return value;
}

/** A comma-separated choice among `all` from the environment variable `name`; all when unset. */
export function listFromEnv<T extends string>(
  script: string,
  name: string,
  all: readonly T[],
): T[] {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') {
    return [...all];
  }
  const chosen = raw.split(',').map((item) => item.trim());
  const unknown = chosen.filter((item) => !all.includes(item as T));
  if (unknown.length > 0) {
    throw new Error(
      `${script}: ${name} has ${unknown.map((item) => `"${item}"`).join(', ')}; expected some of: ${all.join(', ')}`,
    );
  }
  return chosen as T[];
}

export function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): void {
  execFileSync(command, args, { cwd, stdio: 'ignore', env: { ...process.env, ...env } });
}

/**
 * A stock classic site plus plugin-pwa and the local search, as their READMEs set them up, and a
 * closeable announcement bar (the template has none; this site has one), generated into
 * `parent/stock` with create-docusaurus from the npm registry. It shares this site's packages,
 * so both run the same Docusaurus, React and plugin versions: its node_modules is a folder of
 * links, one to each of this site's entries, and not a link to the whole folder, so that each
 * site keeps its own `node_modules/.cache` (Rspack's persistent cache). With one cache folder,
 * clearing one site's cache for a cold start also clears the other's, and bench:dev would time
 * cold starts as warm ones.
 */
function linkPackages(from: string, to: string): void {
  mkdirSync(to);
  for (const entry of readdirSync(from)) {
    if (entry !== '.cache') {
      symlinkSync(path.join(from, entry), path.join(to, entry));
    }
  }
}

export function createStockSite(parent: string): string {
  run(
    'npx',
    ['--yes', CREATE_DOCUSAURUS, 'stock', 'classic', '--javascript', '--skip-install'],
    parent,
  );
  const dir = path.join(parent, 'stock');
  linkPackages(path.join(siteDir, 'node_modules'), path.join(dir, 'node_modules'));
  const configFile = path.join(dir, 'docusaurus.config.js');
  const config = readFileSync(configFile, 'utf8');
  const extra = `
config.plugins = [
  ...(config.plugins ?? []),
  ['@docusaurus/plugin-pwa', {
    offlineModeActivationStrategies: ['appInstalled', 'standalone', 'queryString'],
    pwaHead: [
      { tagName: 'link', rel: 'manifest', href: '/manifest.json' },
      { tagName: 'meta', name: 'theme-color', content: '#25c2a0' },
    ],
  }],
];
config.themes = [...(config.themes ?? []), ['@easyops-cn/docusaurus-search-local', { hashed: true }]];
config.themeConfig.announcementBar = { id: 'stock', content: 'A stock announcement', isCloseable: true };
`;
  writeFileSync(
    configFile,
    config.replace(/export default config;\s*$/, `${extra}\nexport default config;\n`),
  );
  writeFileSync(
    path.join(dir, 'static', 'manifest.json'),
    JSON.stringify({ name: 'Stock', short_name: 'Stock', start_url: '/', display: 'standalone' }),
  );
  return dir;
}

/**
 * `dir`'s build served on `port` as a static host serves it, gzip included (bench/support/static-server.ts:
 * `docusaurus serve` sends every file uncompressed), once it answers (or an error by the deadline).
 */
export async function serve(script: string, dir: string, port: number): Promise<ChildProcess> {
  const server = spawn(
    'npx',
    [
      'tsx',
      path.join(siteDir, 'bench', 'support', 'static-server.ts'),
      path.join(dir, 'build'),
      String(port),
    ],
    { cwd: siteDir, stdio: 'ignore', detached: true },
  );
  const deadline = Date.now() + SERVER_START_DEADLINE_MS;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/`, {
        signal: AbortSignal.timeout(5_000),
      });
      if (response.ok) {
        return server;
      }
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  stop(server);
  throw new Error(
    `${script}: ${dir} did not start serving on port ${port} within ${SERVER_START_DEADLINE_MS} ms`,
  );
}

/** Ends a process started by serve(), with its children (npx starts the server as a child). */
export function stop(server: ChildProcess): void {
  if (server.pid !== undefined) {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const at = (index: number): number => sorted[index] ?? Number.NaN;
  return sorted.length % 2 ? at(middle) : (at(middle - 1) + at(middle)) / 2;
};
