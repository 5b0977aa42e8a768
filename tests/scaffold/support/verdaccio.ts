import { execFile } from 'node:child_process';
import type { Server } from 'node:http';
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
 * package comes through from `upstream`.
 */
export async function startLocalRegistry(folder: string, upstream: string): Promise<LocalRegistry> {
  await mkdir(path.join(folder, 'storage'), { recursive: true });
  const local = { access: '$all', publish: '$authenticated', unpublish: '$authenticated' };
  const config = {
    storage: path.join(folder, 'storage'),
    auth: { htpasswd: { file: path.join(folder, 'htpasswd'), max_users: 1 } },
    // A package's metadata, once fetched, is served from storage for the rest of the run: npm,
    // pnpm, Yarn and bun install the same packages minutes apart (verdaccio asks again after 2 min).
    uplinks: { upstream: { url: upstream, timeout: '60s', max_fails: 5, maxage: '1h' } },
    packages: {
      '@weft/*': local,
      'create-weft': local,
      '**': { access: '$all', publish: '$authenticated', proxy: 'upstream' },
    },
    web: { enable: false },
    log: { type: 'stdout', format: 'pretty', level: 'error' },
    max_body_size: '100mb',
  };
  // JSON is valid YAML, the format verdaccio reads.
  const configFile = path.join(folder, 'config.yaml');
  await writeFile(configFile, JSON.stringify(config, null, 2));

  const server = (await runServer(configFile)) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/`;
  const stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });

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
