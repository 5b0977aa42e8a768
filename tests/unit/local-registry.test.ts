/**
 * The scaffold tests' local registry (tests/scaffold/support/verdaccio.ts): Weft's packages and
 * the registry's own API go to verdaccio; every other package is redirected to the upstream
 * registry, so third-party metadata never passes through verdaccio.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  servedLocally,
  startLocalRegistry,
  type LocalRegistry,
} from '../scaffold/support/verdaccio';

describe('the local registry', () => {
  it('keeps Weft’s packages, their tarballs and the registry API local, in any spelling [claim:cg-scaffold-registry-front]', () => {
    for (const url of [
      '/create-weft',
      '/create-weft/-/create-weft-0.1.0.tgz',
      '/@weft%2fcore',
      '/@weft%2Fcore',
      '/@weft/core/-/core-0.1.0.tgz',
      '/-/user/org.couchdb.user:weft-test',
      '/-/whoami',
    ]) {
      expect(servedLocally(url), url).toBe(true);
    }
    for (const url of ['/typescript', '/@types%2fnode', '/create-weft-other', '/@weftish/x']) {
      expect(servedLocally(url), url).toBe(false);
    }
  });

  describe('started', () => {
    let folder = '';
    let registry: LocalRegistry | undefined;
    beforeAll(async () => {
      folder = await mkdtemp(path.join(tmpdir(), 'weft-local-registry-'));
      registry = await startLocalRegistry(folder, 'http://upstream.invalid/npm');
    }, 60_000);
    afterAll(async () => {
      await registry?.stop();
      await rm(folder, { recursive: true, force: true });
    });

    it('redirects another package to the upstream registry and answers Weft’s itself [claim:cg-scaffold-registry-front]', async () => {
      const other = await fetch(`${registry!.url}@types%2fnode`, { redirect: 'manual' });
      expect(other.status).toBe(302);
      expect(other.headers.get('location')).toBe('http://upstream.invalid/npm/@types%2fnode');
      // Nothing is published yet: verdaccio itself answers that it has no such package.
      const weft = await fetch(`${registry!.url}create-weft`, { redirect: 'manual' });
      expect(weft.status).toBe(404);
      expect(await weft.json()).toHaveProperty('error');
    });
  });
});
