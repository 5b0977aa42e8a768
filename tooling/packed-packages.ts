/**
 * The workspace packages as the tarballs `npm publish` would upload, for the tarball, scaffold
 * and Node-version checks. `npm test` packs every package once and names the folder in
 * WEFT_PACKED_DIR; each check then copies what it asks for from there instead of packing again
 * (@weft/mcp-docs rebuilds its docs bundle on every pack, and two packs at once would write the
 * same dist/). A check run on its own packs for itself.
 */
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  packWorkspacePackages,
  type PackedPackage,
} from '../packages/create-weft/src/weft-packages';

export const PACKED_DIR_ENV = 'WEFT_PACKED_DIR';

const INDEX_FILE = 'packed.json';

/**
 * The names of every published workspace package, in the root package.json's order: the private
 * libraries of libs/ are workspaces too, but nothing packs or publishes them.
 */
export async function workspacePackageNames(root: string): Promise<string[]> {
  const { workspaces } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
    workspaces: string[];
  };
  const manifests = await Promise.all(
    workspaces.map(
      async (folder) =>
        JSON.parse(await readFile(path.join(root, folder, 'package.json'), 'utf8')) as {
          name: string;
          private?: boolean;
        },
    ),
  );
  return manifests.filter((manifest) => manifest.private !== true).map(({ name }) => name);
}

/** Packs every workspace package into `directory` (emptied first), with an index of them. */
export async function packAllOnce(root: string, directory: string): Promise<PackedPackage[]> {
  await rm(directory, { recursive: true, force: true });
  await mkdir(directory, { recursive: true });
  const packed = await packWorkspacePackages(root, await workspacePackageNames(root), directory);
  await writeFile(path.join(directory, INDEX_FILE), JSON.stringify(packed));
  return packed;
}

/**
 * The named packages as tarballs in `destination`: copied from WEFT_PACKED_DIR when it is set,
 * packed from the workspace otherwise.
 */
export async function packedPackages(
  root: string,
  names: readonly string[],
  destination: string,
): Promise<PackedPackage[]> {
  const directory = process.env[PACKED_DIR_ENV];
  if (!directory) return packWorkspacePackages(root, names, destination);
  const index = JSON.parse(
    await readFile(path.join(directory, INDEX_FILE), 'utf8'),
  ) as PackedPackage[];
  return Promise.all(
    names.map(async (name) => {
      const item = index.find((candidate) => candidate.name === name);
      if (!item) {
        throw new Error(`${PACKED_DIR_ENV} (${directory}) holds no tarball of ${name}`);
      }
      await copyFile(path.join(directory, item.filename), path.join(destination, item.filename));
      return item;
    }),
  );
}
