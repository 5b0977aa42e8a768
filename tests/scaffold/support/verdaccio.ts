import { execFile } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { runServer } from 'verdaccio';

const run = promisify(execFile);

/** A private registry on 127.0.0.1 for one test run. */
export interface LocalRegistry {
  url: string;
  /** An npm user config that points npm at this registry, with a token that may publish. */
  userconfig: string;
  stop: () => Promise<void>;
}

/**
 * The registry this machine installs from, as npm itself resolves it: the local registry
 * proxies everything that is not Weft's own to it.
 */
export async function upstreamRegistry(): Promise<string> {
  const { stdout } = await run('npm', ['config', 'get', 'registry'], { timeout: 30_000 });
  return stdout.trim();
}

/** The machine's npm user config, kept so its settings (certificates, proxies) still apply. */
async function machineUserConfig(): Promise<string> {
  const { stdout } = await run('npm', ['config', 'get', 'userconfig'], { timeout: 30_000 });
  return readFile(stdout.trim(), 'utf8').catch(() => '');
}

/**
 * Starts verdaccio with its storage and configuration in `folder`, listening on a free port of
 * 127.0.0.1. Weft's packages are served only from what is published to it; every other
 * package comes from `upstream` itself (see {@link startFront}).
 */
export async function startLocalRegistry(folder: string, upstream: string): Promise<LocalRegistry> {
  await mkdir(path.join(folder, 'storage'), { recursive: true });
  const local = { access: '$all', publish: '$authenticated', unpublish: '$authenticated' };
  const config = {
    storage: path.join(folder, 'storage'),
    auth: { htpasswd: { file: path.join(folder, 'htpasswd'), max_users: 1 } },
    packages: {
      '@weft/*': local,
      'create-weft': local,
    },
    web: { enable: false },
    log: { type: 'stdout', format: 'pretty', level: 'error' },
    max_body_size: '100mb',
  };
  // JSON is valid YAML, the format verdaccio reads.
  const configFile = path.join(folder, 'config.yaml');
  await writeFile(configFile, JSON.stringify(config, null, 2));

  const verdaccio = await listening((await runServer(configFile)) as Server);
  const front = await listening(startFront((verdaccio.address() as AddressInfo).port, upstream));
  const { port } = front.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/`;
  const close = (server: Server) =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  const stop = async () => {
    await Promise.all([close(front), close(verdaccio)]);
  };

  try {
    const token = await addUser(url);
    const userconfig = path.join(folder, 'npmrc');
    const host = url.replace(/^http:/, '');
    await writeFile(
      userconfig,
      `${await machineUserConfig()}\nregistry=${url}\n${host}:_authToken=${token}\n`,
    );
    return { url, userconfig, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function listening(server: Server): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** Whether a registry request is for Weft's own packages or for the registry's own API (`/-/`). */
export function servedLocally(requestUrl: string): boolean {
  const pathname = decodeURIComponent(new URL(requestUrl, 'http://registry').pathname);
  return (
    pathname.startsWith('/-/') ||
    pathname.startsWith('/@weft/') ||
    pathname === '/create-weft' ||
    pathname.startsWith('/create-weft/')
  );
}

/**
 * The address the package managers use: requests for Weft's packages (and logins) go to
 * verdaccio, and every other package is redirected to `upstream`, as a user's install gets it.
 * Proxied by verdaccio instead, each third-party package's metadata (several megabytes for
 * TypeScript or @types/node) was parsed and written again for every install of every package
 * manager, which took more processor time than the four installs themselves.
 */
function startFront(verdaccioPort: number, upstream: string): Server {
  return createServer((request, response) => {
    const requestUrl = request.url ?? '/';
    if (!servedLocally(requestUrl)) {
      const base = upstream.endsWith('/') ? upstream : `${upstream}/`;
      response.writeHead(302, { location: new URL(requestUrl.slice(1), base).href });
      response.end();
      return;
    }
    const forwarded = httpRequest(
      {
        host: '127.0.0.1',
        port: verdaccioPort,
        method: request.method,
        path: requestUrl,
        headers: request.headers,
        timeout: 60_000,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('timeout', () => forwarded.destroy(new Error('verdaccio did not answer')));
    forwarded.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502).end(error.message);
      else response.destroy(error);
    });
    request.pipe(forwarded);
  });
}

/** Registers a throwaway user, as `npm adduser` would, and returns its token. */
async function addUser(url: string): Promise<string> {
  const name = 'weft-test';
  const response = await fetch(`${url}-/user/org.couchdb.user:${name}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, password: 'weft-test-password', type: 'user', roles: [] }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await response.json()) as { token?: string; error?: string };
  if (!response.ok || !body.token) {
    throw new Error(`verdaccio: adding a user failed (${response.status} ${body.error ?? ''})`);
  }
  return body.token;
}
