import { randomBytes } from 'node:crypto';
import {
  lstat,
  mkdir,
  readdir,
  realpath,
  rename,
  rm,
  rmdir,
  stat,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import type { MemoryChoice, ModelChoice } from './choices.js';
import { CreateWeftError } from './errors.js';
import {
  packageManagerFiles,
  packageManagerManifest,
  type PackageManager,
} from './package-manager.js';
import { assertProjectName } from './project-name.js';
import { renderProject } from './templates.js';
import {
  findWorkspaceRoot,
  isWeftClone,
  OTHER_DEPENDENCIES,
  ownVersion,
  packWorkspacePackages,
  weftPackagesFor,
} from './weft-packages.js';

/** Where the tarballs go inside a project made from a clone. */
const VENDOR_DIR = 'vendor';

/** What {@link createProject} makes, and where. */
export interface CreateProjectOptions {
  /**
   * The folder to create: a path that does not exist yet, or an empty folder. A symbolic link
   * to an empty folder fills that folder, and the link stays.
   */
  directory: string;
  /** The npm name of the project. Default: the folder's name. */
  name?: string;
  /** The text model the project starts with; one of `MODEL_CHOICES`. */
  model: ModelChoice;
  /** Where the project keeps memories; one of `MEMORY_CHOICES`. */
  memory: MemoryChoice;
  /**
   * Where the Weft packages come from: `'registry'` for published versions, `'workspace'` for
   * tarballs packed from the clone at `workspaceRoot`. Default: the workspace when this package
   * runs from a clone, else the registry.
   */
  source?: 'registry' | 'workspace';
  /** The clone to pack from, with `source: 'workspace'`. Default: the clone this runs from. */
  workspaceRoot?: string;
  /**
   * The package manager that will install the project: the project's README gives its commands,
   * and the files it needs beside `package.json` (pnpm's `pnpm-workspace.yaml`) are written with
   * the others, before the project is moved into place, so a failure to write them leaves
   * nothing behind either. Default: npm, which needs none.
   */
  packageManager?: PackageManager;
  /**
   * The version of `packageManager`, as its user agent gives it: a pnpm before 10.5, which
   * refuses a `pnpm-workspace.yaml` without workspace packages, gets its settings in
   * package.json's `pnpm` field instead. Default: a current version.
   */
  packageManagerVersion?: string;
  /** Called before each slow step, to show progress. */
  onProgress?: (step: string) => void;
  /**
   * Stops the work when aborted (the command line aborts it on Ctrl+C): a packing step's npm is
   * stopped, what was written is removed, and {@link createProject} rejects.
   */
  signal?: AbortSignal;
}

/** What {@link createProject} wrote. */
export interface CreatedProject {
  /** The project's folder, as an absolute path. */
  directory: string;
  /** The project's npm name. */
  name: string;
  /** Where its Weft packages come from. */
  source: 'registry' | 'workspace';
  /** The project's files, relative to its folder, sorted. */
  files: string[];
}

/**
 * Writes a new Weft project. Everything is written into a hidden folder first and moved into
 * place at the end, so a failure leaves nothing behind (parent folders it had to create
 * included), and so does aborting `signal`. The hidden folder sits beside a folder that does not
 * exist yet, and inside an empty folder that does, which is filled where it is (it may be a
 * mount point, a shell's current folder, or sit in a folder the user cannot write to).
 *
 * @param options - The folder, the name, the model and memory choices, and the packages' source.
 * @returns What was written.
 * @throws {@link CreateWeftError} when the name is not one npm accepts for a new package, the
 * folder is a file, a folder that is not empty or a symbolic link that leads to no folder, or
 * `source: 'workspace'` is asked for outside a clone or with a `workspaceRoot` that is no clone,
 * or the file system refuses to write the project there (`WEFT_CREATE_WRITE_FAILED`); the
 * signal's reason once it is aborted; and whatever else packing fails with (the staging folder
 * is removed first, in every case).
 * @claim tsdoc-create-project-refusals
 * @claim tsdoc-create-project-nothing-behind
 */
export async function createProject(options: CreateProjectOptions): Promise<CreatedProject> {
  const directory = path.resolve(options.directory);
  const name = options.name ?? path.basename(directory);
  assertProjectName(name);
  // Where the files go: `directory`, or the empty folder a symbolic link there leads to.
  const { folder: target, exists } = await writableFolder(directory);

  const workspaceRoot = options.workspaceRoot ?? findWorkspaceRoot();
  const source = options.source ?? (workspaceRoot ? 'workspace' : 'registry');
  if (source === 'workspace' && !workspaceRoot) {
    throw new CreateWeftError(
      'WEFT_CREATE_NO_WORKSPACE',
      'source "workspace": this create-weft does not run from a Weft clone; fix: run it from a clone, or use the registry',
    );
  }
  // A root given by the caller is checked as the one found is, before anything is written.
  if (
    source === 'workspace' &&
    options.workspaceRoot !== undefined &&
    !isWeftClone(workspaceRoot as string)
  ) {
    throw new CreateWeftError(
      'WEFT_CREATE_NO_WORKSPACE',
      `source "workspace": workspaceRoot ${JSON.stringify(options.workspaceRoot)} is not a clone of the Weft repository (its package.json has no packages/core workspace of @weft/core); fix: give the clone's root folder, or use the registry`,
    );
  }

  const { signal } = options;
  signal?.throwIfAborted();
  // The staging folder is on the target's file system, so that moving it is a rename: inside
  // the target when it exists, else beside it.
  const parent = path.dirname(target);
  // Known before making it, so that a mkdir failing part of the way (a full disk) can be undone.
  const firstMissing = exists ? undefined : await firstMissingFolder(parent);
  const createdParent = exists
    ? undefined
    : await mkdir(parent, { recursive: true }).catch(async (error: unknown) => {
        if (firstMissing) await rm(firstMissing, { recursive: true, force: true });
        throw writeFailure(directory, error);
      });
  const staging = path.join(
    exists ? target : parent,
    `.${path.basename(target)}-${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    await mkdir(staging);
    const weftPackages = weftPackagesFor(options);
    let dependencies: Record<string, string>;
    let dependencyNote = '';
    if (source === 'workspace') {
      options.onProgress?.(`Packing ${weftPackages.join(', ')} from this clone`);
      await mkdir(path.join(staging, VENDOR_DIR));
      const packed = await packWorkspacePackages(
        workspaceRoot as string,
        weftPackages,
        path.join(staging, VENDOR_DIR),
        { signal },
      );
      dependencies = Object.fromEntries(
        packed.map((item) => [item.name, `file:${VENDOR_DIR}/${item.filename}`]),
      );
      dependencyNote = [
        '## Where Weft comes from',
        '',
        `The \`@weft/*\` packages are tarballs in \`${VENDOR_DIR}/\`, packed from a clone of the Weft`,
        'repository, so this project needs nothing else from it. Once they are published, replace',
        `each \`file:${VENDOR_DIR}/...\` in \`package.json\` with \`^${ownVersion()}\` and delete \`${VENDOR_DIR}/\`.`,
        'Until then, another Weft package (such as `@weft/model-openai` for a real model) comes from',
        `the clone the same way: pack it there into this project's \`${VENDOR_DIR}/\` and install the tarball, as`,
        '[Installation](https://weft-ai.github.io/docs/installation/) shows; the registry does not have it yet.',
      ].join('\n');
    } else {
      dependencies = Object.fromEntries(weftPackages.map((pkg) => [pkg, `^${ownVersion()}`]));
    }

    signal?.throwIfAborted();
    options.onProgress?.('Writing the project');
    const files = await renderProject({
      projectName: name,
      model: options.model,
      memory: options.memory,
      dependencies: { ...OTHER_DEPENDENCIES, ...dependencies },
      dependencyNote,
      ...(options.packageManager ? { packageManager: options.packageManager } : {}),
    });
    const manager = options.packageManager ?? 'npm';
    const version = options.packageManagerVersion;
    const nativeSqlite = options.memory === 'sqlite';
    const managerFiles = packageManagerFiles(manager, {
      nativeSqlite,
      pinned: source === 'registry' ? weftPackages.map((pkg) => `${pkg}@${ownVersion()}`) : [],
      ...(version === undefined ? {} : { version }),
    });
    for (const [file, content] of managerFiles) files.set(file, content);
    const managerFields = packageManagerManifest(manager, {
      nativeSqlite,
      ...(version === undefined ? {} : { version }),
    });
    if (Object.keys(managerFields).length > 0) {
      const manifest = JSON.parse(files.get('package.json') ?? '{}') as Record<string, unknown>;
      files.set('package.json', `${JSON.stringify({ ...manifest, ...managerFields }, null, 2)}\n`);
    }
    for (const [file, content] of files) {
      const written = path.join(staging, file);
      await mkdir(path.dirname(written), { recursive: true });
      await writeFile(written, content);
    }

    // Read before the move, so that nothing can fail once the project is in place: a failure
    // is reported with "Nothing was written", which must then hold.
    const vendored = source === 'workspace' ? await readdir(path.join(staging, VENDOR_DIR)) : [];
    const entries = exists ? await readdir(staging) : [];
    signal?.throwIfAborted();
    if (exists) await moveUp(staging, target, entries);
    else await rename(staging, target);
    return {
      directory,
      name,
      source,
      files: [...files.keys(), ...vendored.map((file) => `${VENDOR_DIR}/${file}`)].sort(),
    };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (createdParent) await rm(createdParent, { recursive: true, force: true });
    // A step the signal stopped fails with an error of its own: the reason is the signal's.
    throw signal?.aborted ? (signal.reason as unknown) : writeFailure(directory, error);
  }
}

/** The outermost folder of `folder`'s path that does not exist yet, if one does not. */
async function firstMissingFolder(folder: string): Promise<string | undefined> {
  let missing: string | undefined;
  for (let dir = folder; ; dir = path.dirname(dir)) {
    const found = await lstat(dir).then(
      () => true,
      (error: NodeJS.ErrnoException) => error.code !== 'ENOENT',
    );
    if (found || path.dirname(dir) === dir) return missing;
    missing = dir;
  }
}

/** The file system's answers that mean the project's files cannot be written where asked. */
const WRITE_REFUSALS = new Set([
  'EACCES',
  'EPERM',
  'EROFS',
  'ENOSPC',
  'EDQUOT',
  'ENOTDIR',
  'ENOENT',
]);

/**
 * `error` as `WEFT_CREATE_WRITE_FAILED` when the file system refused to write the project (a
 * folder the user may not write, a read-only or full disk, a parent that is a file), naming the
 * folder; any other error as it is.
 */
function writeFailure(directory: string, error: unknown): unknown {
  const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  if (syscall === undefined || code === undefined || !WRITE_REFUSALS.has(code)) return error;
  return new CreateWeftError(
    'WEFT_CREATE_WRITE_FAILED',
    `${directory}: cannot be written: ${(error as Error).message}; fix: choose a folder you may write to, on a disk with free space`,
    { cause: error },
  );
}

/**
 * The folder the project is written to: `directory` when it is missing or an empty folder, or
 * the empty folder a symbolic link at `directory` leads to (the link stays, and leads to the
 * project). Throws when it is a file, a folder that is not empty, or a symbolic link that
 * leads to no folder.
 */
async function writableFolder(directory: string): Promise<{ folder: string; exists: boolean }> {
  const missing = (error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    // A parent that is a file (ENOTDIR) or may not be searched (EACCES) holds no project.
    throw writeFailure(directory, error);
  };
  const entry = await lstat(directory).catch(missing);
  if (!entry) return { folder: directory, exists: false };
  const target = entry.isSymbolicLink()
    ? await realpath(directory).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT' && error.code !== 'ELOOP') throw writeFailure(directory, error);
        throw new CreateWeftError(
          'WEFT_CREATE_FOLDER_TAKEN',
          `${directory}: is a symbolic link that leads to no folder; fix: choose a folder name that is free, or create the folder the link names`,
        );
      })
    : directory;
  // A folder the user may not read or search holds no project of theirs either.
  const unreadable = (error: unknown) => {
    throw writeFailure(directory, error);
  };
  const info = await stat(target).catch(unreadable);
  if (!info.isDirectory()) {
    throw new CreateWeftError(
      'WEFT_CREATE_FOLDER_TAKEN',
      `${directory}: is a file; fix: choose a folder name that is free`,
    );
  }
  if ((await readdir(target).catch(unreadable)).length > 0) {
    throw new CreateWeftError(
      'WEFT_CREATE_FOLDER_TAKEN',
      `${directory}: is not empty; fix: choose a new folder name, or empty this one first`,
    );
  }
  return { folder: target, exists: true };
}

/**
 * Moves `entries`, the contents of `staging`, up into `folder`, which holds `staging` and
 * nothing else; then removes `staging`. When a move fails, what was moved is removed again, so
 * `folder` is empty once `staging` is removed too. Once every entry is in place nothing fails:
 * an empty `staging` that cannot be removed stays.
 */
async function moveUp(staging: string, folder: string, entries: readonly string[]): Promise<void> {
  const moved: string[] = [];
  try {
    for (const entry of entries) {
      await rename(path.join(staging, entry), path.join(folder, entry));
      moved.push(entry);
    }
  } catch (error) {
    for (const entry of moved) {
      await rm(path.join(folder, entry), { recursive: true, force: true });
    }
    throw error;
  }
  await rmdir(staging).catch(() => undefined);
}
