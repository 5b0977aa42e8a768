/**
 * Follows a Dockerfile without a container engine (none runs where the tests run): the build
 * stage's `COPY . .` copies what the ignore file lets through from the build context into a fresh
 * folder, its `RUN` commands run there, the final stage's `COPY --from=build` lines copy what
 * they name into another folder, its own `RUN` commands run there, and what is left is started
 * with the final stage's `ENV` and `CMD`. It catches what a static read of the Dockerfile cannot:
 * a file the ignore list keeps out that the build needs, a dependency the build leaves out that
 * the agent imports, an entry point the build does not write. The base image, the `node` user and
 * the network of a real container are not rehearsed.
 */
import { chmod, cp, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  parseDockerfile,
  type Instruction,
} from '../../../packages/create-weft/test/support/dockerfile';
import { runCommand } from '@weft-internal/test-support/commands';

const KNOWN = new Set(['FROM', 'WORKDIR', 'COPY', 'RUN', 'ENV', 'USER', 'EXPOSE', 'CMD']);
const WORKDIR = '/app';

/** What `docker build` reads: a Dockerfile, the folder it builds from and that folder's ignore file. */
export interface ImageSource {
  dockerfile: string;
  /** The build context, which `COPY . .` copies from. */
  context: string;
  /** The ignore file that applies to the context. */
  ignoreFile: string;
}

/** A generated project's image: its Dockerfile and .dockerignore, with the project as context. */
export function projectImage(project: string): ImageSource {
  return {
    dockerfile: path.join(project, 'Dockerfile'),
    context: project,
    ignoreFile: path.join(project, '.dockerignore'),
  };
}

/**
 * The image's `node` user does not exist here: a `chown` on the PATH of RUN commands checks
 * that its target exists and changes nothing.
 */
async function userShims(work: string): Promise<string> {
  const dir = path.join(work, 'image-shims');
  await mkdir(dir, { recursive: true });
  const chown = path.join(dir, 'chown');
  await writeFile(chown, '#!/bin/sh\nfor target; do :; done\ntest -e "$target"\n');
  await chmod(chown, 0o755);
  return dir;
}

export interface RehearsedImage {
  /** The final stage's /app, as the image would hold it. */
  appDir: string;
  /** The final stage's ENV. */
  env: Record<string, string>;
  /** The final stage's CMD, as an argument list. */
  cmd: [string, ...string[]];
}

/**
 * An ignore-file line as a test of a path relative to the context, as Docker reads it: anchored
 * at the context's root, `*` and `?` within one path segment, `**` across any number of them. A
 * path whose folder is left out is left out with it, since the copy never enters that folder.
 */
export function ignoreRule(line: string): (relative: string) => boolean {
  if (line.startsWith('!') || /[[\]\\]/.test(line)) {
    throw new Error(`image rehearsal: ignore pattern "${line}" is not one it understands`);
  }
  const pattern = line.replace(/^\/+/, '').replace(/\/+$/, '');
  let source = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] as string;
    if (pattern.startsWith('**/', index)) {
      source += '(?:.*/)?';
      index += 2;
    } else if (pattern.startsWith('**', index)) {
      source += '.*';
      index += 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|]/g, '\\$&');
  }
  const expression = new RegExp(`^${source}$`);
  return (relative) => expression.test(relative);
}

/** The final stage's `ENV` lines, in `ENV KEY=value` form. */
function environmentOf(instructions: Instruction[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { args } of instructions.filter(({ keyword }) => keyword === 'ENV')) {
    const [key, ...value] = args.split('=');
    if (!key || value.length === 0) {
      throw new Error(`image rehearsal: ENV ${args} is not in KEY=value form`);
    }
    env[key] = value.join('=');
  }
  return env;
}

export async function rehearseImage(
  source: ImageSource,
  work: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<RehearsedImage> {
  const instructions = parseDockerfile(await readFile(source.dockerfile, 'utf8'));
  const unknown = instructions.filter(({ keyword }) => !KNOWN.has(keyword));
  if (unknown.length > 0) {
    throw new Error(
      `image rehearsal: the Dockerfile uses ${unknown.map(({ keyword }) => keyword).join(', ')}, which it does not rehearse`,
    );
  }
  const lastStage = Math.max(...instructions.map(({ stage }) => stage));
  const ignored = (await readFile(source.ignoreFile, 'utf8'))
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map(ignoreRule);

  const workdirs = new Set(
    instructions.filter(({ keyword }) => keyword === 'WORKDIR').map(({ args }) => args),
  );
  if (workdirs.size !== 1 || !workdirs.has(WORKDIR)) {
    throw new Error(
      `image rehearsal: every stage must work in ${WORKDIR}, not ${[...workdirs].join(', ')}`,
    );
  }
  // The build stage's filesystem root, so that COPY --from=build /app/... finds its files.
  const buildRoot = path.join(work, 'image-build');
  const buildDir = path.join(buildRoot, WORKDIR);
  const finalDir = path.join(work, 'image', 'app');
  await mkdir(buildDir, { recursive: true });
  await mkdir(finalDir, { recursive: true });
  const shims = await userShims(work);
  for (const { stage, keyword, args } of instructions) {
    const dir = stage === lastStage ? finalDir : buildDir;
    if (keyword === 'COPY' && args === '. .' && stage !== lastStage) {
      await cp(source.context, buildDir, {
        recursive: true,
        // As Docker copies a link: its target unchanged, not the file it points to.
        verbatimSymlinks: true,
        filter: (file) => {
          const relative = path.relative(source.context, file).split(path.sep).join('/');
          return relative === '' || !ignored.some((rule) => rule(relative));
        },
      });
    } else if (keyword === 'COPY') {
      const match = /^--from=\S+\s+(\S+)\s+(\S+)$/.exec(args);
      if (!match || stage !== lastStage) {
        throw new Error(`image rehearsal: COPY ${args} is not a form it rehearses`);
      }
      const [, from = '', to = ''] = match;
      const copied = path.join(buildRoot, from);
      const target = to.endsWith('/')
        ? path.join(finalDir, to, path.basename(from))
        : path.join(finalDir, to);
      await cp(copied, target, { recursive: true, verbatimSymlinks: true });
    } else if (keyword === 'RUN') {
      const shell = { ...env, PATH: `${shims}${path.delimiter}${env.PATH ?? ''}` };
      await runCommand('sh', ['-c', args], { cwd: dir, env: shell, timeoutMs });
    }
  }
  const cmdLine = instructions.filter(({ keyword }) => keyword === 'CMD').at(-1)?.args;
  if (!cmdLine?.startsWith('[')) {
    throw new Error('image rehearsal: the final stage has no CMD in its JSON (exec) form');
  }
  const cmd = JSON.parse(cmdLine) as string[];
  if (cmd.length === 0) throw new Error('image rehearsal: the CMD is empty');
  return {
    appDir: finalDir,
    env: environmentOf(instructions.filter(({ stage }) => stage === lastStage)),
    cmd: cmd as [string, ...string[]],
  };
}

/** The files of a folder, relative to it, for a readable failure. */
export async function filesIn(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String).sort();
}
