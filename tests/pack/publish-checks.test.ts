/**
 * What the registry and its users need from every workspace package, checked on the tarballs
 * `npm publish` would upload: the manifest fields, publint's rules, and
 * @arethetypeswrong/cli's resolution of the types under node10, node16 (ESM and CommonJS) and
 * bundlers.
 */
import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PackedPackage } from '../../packages/create-weft/src/weft-packages';
import { packedPackages } from '../../tooling/packed-packages';
import { runCommand } from '@weft-internal/test-support/commands';
import { SUPPORTED_NODE_RANGE } from '../../tooling/node-versions';

const root = path.resolve(__dirname, '../..');
const TIMEOUT = 300_000;

interface Manifest {
  name: string;
  files?: string[];
  exports?: Record<string, { import?: { types?: string }; require?: { types?: string } }>;
  engines?: { node?: string };
  license?: string;
  repository?: { url?: string; directory?: string };
  homepage?: string;
  keywords?: string[];
}

// The published packages: the private libraries of libs/ are workspaces too, never packed.
const workspaces = (
  JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { workspaces: string[] }
).workspaces.filter((folder) => folder.startsWith('packages/'));
const manifests = await Promise.all(
  workspaces.map(
    async (folder) =>
      [
        folder,
        JSON.parse(await readFile(path.join(root, folder, 'package.json'), 'utf8')) as Manifest,
      ] as const,
  ),
);

describe.each(manifests)('%s/package.json', (folder, manifest) => {
  it('has what the registry shows and users rely on', () => {
    expect(manifest.files).toEqual(expect.arrayContaining(['dist', 'README.md']));
    expect(manifest.exports?.['.']?.import?.types).toMatch(/\.d\.ts$/);
    expect(manifest.exports?.['.']?.require?.types).toMatch(/\.d\.cts$/);
    expect(manifest.engines?.node).toBe(SUPPORTED_NODE_RANGE);
    expect(manifest.license).toBe('MIT');
    expect(manifest.repository?.directory).toBe(folder);
    expect(manifest.homepage).toMatch(/^https:\/\//);
    expect(manifest.keywords?.length).toBeGreaterThan(0);
  });
});

describe('the packed tarballs', () => {
  let work = '';
  let packed: PackedPackage[] = [];

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'weft-publish-checks-'));
    packed = await packedPackages(
      root,
      manifests.map(([, manifest]) => manifest.name),
      work,
    );
  }, TIMEOUT);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('include one tarball per workspace package', () => {
    expect(packed.map((item) => item.name).sort()).toEqual(
      manifests.map(([, manifest]) => manifest.name).sort(),
    );
  });

  it(
    "never make an install fetch a private library of libs/: a packed package.json names one only among the devDependencies, which a package's users never install",
    async () => {
      expect(packed.length).toBe(workspaces.length);
      const installed = [
        'dependencies',
        'peerDependencies',
        'optionalDependencies',
        'bundleDependencies',
      ] as const;
      for (const item of packed) {
        const unpacked = path.join(work, `manifest-${item.name.replace(/\W/g, '-')}`);
        await mkdir(unpacked, { recursive: true });
        await runCommand(
          'tar',
          ['-xzf', path.join(work, item.filename), '-C', unpacked, 'package/package.json'],
          { cwd: work, timeoutMs: 60_000 },
        );
        const manifest = JSON.parse(
          await readFile(path.join(unpacked, 'package/package.json'), 'utf8'),
        ) as Record<string, unknown>;
        const named = installed.flatMap((field) =>
          JSON.stringify(manifest[field] ?? {}).includes('@weft-internal/') ? [field] : [],
        );
        expect(named, item.name).toEqual([]);
      }
    },
    TIMEOUT,
  );

  it.each(workspaces)('%s passes publint, suggestions included', async (folder) => {
    const name = manifests.find(([dir]) => dir === folder)?.[1].name;
    const tarball = packed.find((item) => item.name === name);
    expect(tarball).toBeDefined();
    const data = await readFile(path.join(work, (tarball as PackedPackage).filename));
    const { messages, pkg } = await publint({
      pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) },
      level: 'suggestion',
      strict: true,
    });
    expect(messages.map((message) => formatMessage(message, pkg, { color: false }))).toEqual([]);
  });

  it.each(workspaces)(
    '%s ships type declarations without the claim ids of its TSDoc [claim:contrib-claim-tag-not-shipped]',
    async (folder) => {
      const name = manifests.find(([dir]) => dir === folder)?.[1].name;
      const tarball = packed.find((item) => item.name === name) as PackedPackage;
      const unpacked = path.join(work, `unpacked-${path.basename(folder)}`);
      await mkdir(unpacked, { recursive: true });
      await runCommand('tar', ['-xzf', path.join(work, tarball.filename), '-C', unpacked], {
        cwd: work,
        timeoutMs: 60_000,
      });
      const declarations = (await readdir(unpacked, { recursive: true })).filter((file) =>
        /\.d\.[cm]?ts$/.test(file),
      );
      expect(declarations.length).toBeGreaterThan(0);
      for (const file of declarations) {
        const text = await readFile(path.join(unpacked, file), 'utf8');
        expect(text, file).not.toMatch(/@claim\b/);
      }
    },
    TIMEOUT,
  );

  it(
    "gives @weft/testing's browser build declarations of its own, without the Node-only names [claim:testing-browser-build]",
    async () => {
      const tarball = packed.find((item) => item.name === '@weft/testing') as PackedPackage;
      const unpacked = path.join(work, 'unpacked-testing-browser');
      await mkdir(unpacked, { recursive: true });
      await runCommand('tar', ['-xzf', path.join(work, tarball.filename), '-C', unpacked], {
        cwd: work,
        timeoutMs: 60_000,
      });
      const manifest = JSON.parse(
        await readFile(path.join(unpacked, 'package/package.json'), 'utf8'),
      ) as { exports: { '.': { browser: { types: string } } } };
      const declarations = await readFile(
        path.join(unpacked, 'package', manifest.exports['.'].browser.types),
        'utf8',
      );
      expect(declarations).toContain('ScriptedModelProvider');
      expect(declarations).toContain('InMemoryMemoryProvider');
      expect(declarations).not.toMatch(/memoryProviderContract|INVALID_MEMORY_INPUTS/);
    },
    TIMEOUT,
  );

  it.each(workspaces)(
    '%s resolves its types everywhere (@arethetypeswrong/cli)',
    async (folder) => {
      const name = manifests.find(([dir]) => dir === folder)?.[1].name;
      const tarball = packed.find((item) => item.name === name) as PackedPackage;
      const attw = path.join(root, 'node_modules/@arethetypeswrong/cli/dist/index.js');
      // attw exits non-zero on any problem and prints a table saying which.
      const { stdout } = await runCommand(
        process.execPath,
        [attw, path.join(work, tarball.filename), '--format', 'table-flipped'],
        { cwd: work, env: { ...process.env, NO_COLOR: '1' }, timeoutMs: 60_000 },
      );
      expect(stdout).toContain('No problems found');
    },
    TIMEOUT,
  );
});
