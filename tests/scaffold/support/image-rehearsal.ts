/**
 * Follows a generated project's Dockerfile without a container engine (none runs where the
 * tests run): the build stage's `COPY . .` copies what .dockerignore lets through into a fresh
 * folder, its `RUN` commands run there, the final stage's `COPY --from=build` lines copy what
 * they name into another folder, and what is left is started with the final stage's `ENV` and
 * `CMD`. It catches what a static read of the Dockerfile cannot: a file the ignore list keeps
 * out that the build needs, a dependency `npm prune --omit=dev` removes that the built agent
 * imports, an entry point the build does not write. The base image, the `node` user and the
 * network of a real container are not rehearsed.
 */
import { chmod, cp, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  parseDockerfile,
  type Instruction,
} from '../../../packages/create-weft/test/support/dockerfile';
import { runCommand } from '../../../libs/test-support/commands';

const KNOWN = new Set(['FROM', 'WORKDIR', 'COPY', 'RUN', 'ENV', 'USER', 'EXPOSE', 'CMD']);
const WORKDIR = '/app';

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

/** A .dockerignore line as a test of a path relative to the context (the forms it uses). */
function ignoreRule(line: string): (relative: string) => boolean {
  const pattern = line.replace(/\/$/, '');
  if (pattern.startsWith('*.')) {
    const suffix = pattern.slice(1);
    return (relative) => path.basename(relative).endsWith(suffix);
  }
  if (/[*?[]/.test(pattern)) {
    throw new Error(`image rehearsal: .dockerignore pattern "${line}" is not one it understands`);
  }
  return (relative) => relative === pattern || relative.startsWith(`${pattern}/`);
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
  project: string,
  work: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<RehearsedImage> {
  const instructions = parseDockerfile(await readFile(path.join(project, 'Dockerfile'), 'utf8'));
  const unknown = instructions.filter(({ keyword }) => !KNOWN.has(keyword));
  if (unknown.length > 0) {
    throw new Error(
      `image rehearsal: the Dockerfile uses ${unknown.map(({ keyword }) => keyword).join(', ')}, which it does not rehearse`,
    );
  }
  const lastStage = Math.max(...instructions.map(({ stage }) => stage));
  const ignored = (await readFile(path.join(project, '.dockerignore'), 'utf8'))
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
      await cp(project, buildDir, {
        recursive: true,
        filter: (source) => {
          const relative = path.relative(project, source);
          return (
            relative === '' || !ignored.some((rule) => rule(relative.split(path.sep).join('/')))
          );
        },
      });
    } else if (keyword === 'COPY') {
      const match = /^--from=\S+\s+(\S+)\s+(\S+)$/.exec(args);
      if (!match || stage !== lastStage) {
        throw new Error(`image rehearsal: COPY ${args} is not a form it rehearses`);
      }
      const [, from = '', to = ''] = match;
      const source = path.join(buildRoot, from);
      const target = to.endsWith('/')
        ? path.join(finalDir, to, path.basename(from))
        : path.join(finalDir, to);
      await cp(source, target, { recursive: true });
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
