#!/usr/bin/env node
import path from 'node:path';
import * as prompts from '@clack/prompts';
import { parseArguments, USAGE, type Arguments } from './arguments.js';
import {
  DEFAULT_MEMORY,
  DEFAULT_MODEL,
  MEMORY_CHOICES,
  MEMORY_LABELS,
  MODEL_CHOICES,
  MODEL_LABELS,
  type MemoryChoice,
  type ModelChoice,
} from './choices.js';
import { createProject } from './create-project.js';
import { CreateWeftError } from './errors.js';

/** Asks on a terminal for whatever the arguments left out; elsewhere takes the defaults. */
async function complete(args: Arguments): Promise<Required<Omit<Arguments, 'name' | 'help'>>> {
  const interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY);
  if (!interactive) {
    if (!args.directory) {
      throw new CreateWeftError('folder: missing; fix: npm create weft@latest my-agent');
    }
    return {
      directory: args.directory,
      model: args.model ?? DEFAULT_MODEL,
      memory: args.memory ?? DEFAULT_MEMORY,
    };
  }
  const directory =
    args.directory ??
    answered(
      await prompts.text({
        message: 'Where should the project go?',
        placeholder: 'my-agent',
        defaultValue: 'my-agent',
      }),
    );
  const model =
    args.model ??
    answered<ModelChoice>(
      await prompts.select<ModelChoice>({
        message: 'Which text model?',
        initialValue: DEFAULT_MODEL,
        options: MODEL_CHOICES.map((value) => ({ value, label: MODEL_LABELS[value] })),
      }),
    );
  const memory =
    args.memory ??
    answered<MemoryChoice>(
      await prompts.select<MemoryChoice>({
        message: 'Where should memories be kept?',
        initialValue: DEFAULT_MEMORY,
        options: MEMORY_CHOICES.map((value) => ({ value, label: MEMORY_LABELS[value] })),
      }),
    );
  return { directory, model, memory };
}

/** A prompt's answer, or a clean exit when the user pressed Ctrl+C. */
function answered<T extends string>(value: T | symbol): T {
  if (typeof value === 'symbol' || prompts.isCancel(value)) {
    prompts.cancel('Nothing was written.');
    process.exit(130);
  }
  return value;
}

async function main(): Promise<void> {
  const args = parseArguments(process.argv.slice(2));
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  prompts.intro('create-weft');
  const choices = await complete(args);
  const progress = prompts.spinner();
  let spinning = false;
  // `npm run` and `npm create` run in another folder; INIT_CWD is where the user typed.
  const here = process.env.INIT_CWD ?? process.cwd();
  const project = await createProject({
    ...choices,
    directory: path.resolve(here, choices.directory),
    ...(args.name ? { name: args.name } : {}),
    onProgress: (step) => {
      if (spinning) progress.message(step);
      else progress.start(step);
      spinning = true;
    },
  }).then(
    (created) => {
      if (spinning) progress.stop('Done');
      return created;
    },
    (error: unknown) => {
      if (spinning) progress.error('Failed');
      throw error;
    },
  );
  const relative = path.relative(here, project.directory) || '.';
  // A path that climbs more than one level reads better as the absolute one.
  const shown = relative.startsWith(`..${path.sep}..`) ? project.directory : relative;
  prompts.note(
    [`cd ${shown}`, 'npm install', 'npm test', 'npm run dev'].join('\n'),
    `Created ${project.name} with --model ${choices.model} --memory ${choices.memory}. Next:`,
  );
  prompts.outro('README.md explains every file.');
}

main().catch((error: unknown) => {
  // A problem the user can fix is one line; anything else keeps its stack for a bug report.
  const message =
    error instanceof CreateWeftError
      ? error.message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
  process.stderr.write(`create-weft: ${message}\nNothing was written.\n`);
  process.exitCode = 1;
});
