/**
 * A private static server for browser tests that must stop the server, change the files it serves
 * or serve the site under another path. It answers like `docusaurus serve` does
 * (node_modules/@docusaurus/core/lib/commands/serve.js): serve-handler with clean URLs, trailing
 * slashes enforced, no directory listing, and a base path that is stripped before the file lookup.
 *
 * The shared server on port 4173 (playwright.config.ts) is never touched: each call listens on a
 * free port of 127.0.0.1, inside the test worker, and `stop()` closes it and every open connection.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import compression from 'compression';
import serveHandler from 'serve-handler';

/** The production build that `npm run build` writes and the shared server serves. */
export const buildDir = resolve(__dirname, '..', '..', '..', 'build');

export interface StaticServerOptions {
  /** Folder to serve. */
  dir: string;
  /**
   * Path the folder is served under, with leading and trailing slashes (default `/`). Requests
   * outside it are redirected to it, as `docusaurus serve` does for a site's baseUrl.
   */
  basePath?: string;
  /**
   * Gzip text answers, as the static hosts readers meet do (`docusaurus serve` does not).
   * Benchmarks set it, so they count the bytes a reader downloads.
   */
  compress?: boolean;
  /** Port to listen on (default: a free one). */
  port?: number;
}

export interface StaticServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Origin plus base path, ending with a slash. */
  url: string;
  port: number;
  /** Every request URL (path and query) received so far, in order. */
  requests: string[];
  /** Stops listening and drops open (keep-alive) connections. */
  stop(): Promise<void>;
}

/** Last path segment has a 1-4 character extension: the heuristic `docusaurus serve` uses. */
const looksLikeAsset = (pathname: string): boolean => /\.[a-zA-Z\d]{1,4}$/.test(pathname);

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { Location: location });
  res.end();
}

export async function startStaticServer(options: StaticServerOptions): Promise<StaticServer> {
  const basePath = options.basePath ?? '/';
  if (!basePath.startsWith('/') || !basePath.endsWith('/')) {
    throw new Error(`basePath must start and end with "/", got "${basePath}"`);
  }
  const publicDir = options.dir;
  const requests: string[] = [];
  const compress = options.compress ? compression() : undefined;

  const serveFile = (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '/';
    requests.push(url);
    if (!url.startsWith(basePath)) {
      redirect(res, basePath);
      return;
    }
    if (basePath !== '/') {
      // serve-handler would drop the base path from its own trailing-slash redirects.
      const queryStart = url.search(/[?#]/);
      const pathname = queryStart === -1 ? url : url.slice(0, queryStart);
      const rest = queryStart === -1 ? '' : url.slice(queryStart);
      if (!looksLikeAsset(pathname) && !pathname.endsWith('/')) {
        redirect(res, `${pathname}/${rest}`);
        return;
      }
    }
    req.url = url.replace(basePath, '/');
    serveHandler(req, res, {
      public: publicDir,
      cleanUrls: true,
      trailingSlash: true,
      directoryListing: false,
    }).catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  };
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    if (compress === undefined) {
      serveFile(req, res);
    } else {
      // The middleware's types are express's; it reads and wraps only what node:http has.
      compress(req as never, res as never, () => serveFile(req, res));
    }
  };

  const server = createServer(handle);
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolvePromise());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  let stopped = false;
  return {
    origin,
    url: `${origin}${basePath}`,
    port,
    requests,
    async stop() {
      if (stopped) {
        return;
      }
      stopped = true;
      await new Promise<void>((resolvePromise, reject) => {
        server.close((error) => (error ? reject(error) : resolvePromise()));
        server.closeAllConnections();
      });
    },
  };
}

/** A throwaway copy of the build, for tests that edit the served files. */
export interface BuildCopy {
  dir: string;
  remove(): void;
}

export function copyBuild(prefix = 'weft-build-'): BuildCopy {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(buildDir, dir, { recursive: true });
  return {
    dir,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
