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
import { installDependencies } from './install-dependencies.js';
import { createProgress } from './progress.js';
import { defaultAgentPort } from './templates.js';
import {
  createCommand,
  detectPackageManager,
  detectPackageManagerVersion,
  formatCommand,
  installCommand,
  scriptCommand,
  shellPath,
  type PackageManager,
} from './package-manager.js';

/**
 * Asks on a terminal for whatever the arguments left out; elsewhere takes the defaults.
 * @claim tsdoc-cw-cli-complete
 */
async function complete(
  args: Arguments,
  manager: PackageManager,
): Promise<Required<Omit<Arguments, 'name' | 'help' | 'skipInstall'>>> {
  const interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY);
  if (!interactive) {
    if (!args.directory) {
      throw new CreateWeftError(
        'WEFT_CREATE_INVALID_ARGUMENTS',
        `folder: missing; fix: ${createCommand(manager, 'my-agent')}`,
      );
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

/**
 * A prompt's answer, or a clean exit when the user pressed Ctrl+C.
 * @claim tsdoc-cw-cli-answered
 */
function answered<T extends string>(value: T | symbol): T {
  if (typeof value === 'symbol' || prompts.isCancel(value)) {
    prompts.cancel('Nothing was written.');
    process.exit(130);
  }
  return value;
}

/**
 * Installs with the manager that ran create-weft. A failed install keeps the project (it was
 * written whole) and exits with 1 once the next steps (`cd` into it, then the install) are shown.
 * @claim tsdoc-cw-cli-install
 */
async function install(
  manager: PackageManager,
  directory: string,
  created: string,
): Promise<boolean> {
  prompts.log.step(`${created} Installing with ${formatCommand(installCommand(manager))}`);
  try {
    await installDependencies({ manager, directory });
    return true;
  } catch (error) {
    if (!(error instanceof CreateWeftError)) throw error;
    prompts.log.error(error.message);
    process.exitCode = 1;
    return false;
  }
}

async function main(): Promise<void> {
  const args = parseArguments(process.argv.slice(2), process.env);
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  // Whoever ran this (npm, pnpm, yarn or bun create) installs the project and names the steps.
  const manager = detectPackageManager(process.env.npm_config_user_agent);
  const managerVersion = detectPackageManagerVersion(process.env.npm_config_user_agent);
  prompts.intro('create-weft');
  const choices = await complete(args, manager);
  // Read before anything is written: once the project is in place, nothing may fail, as a
  // failure is reported with "Nothing was written".
  const port = await defaultAgentPort();
  const progress = createProgress();
  // `npm run` and `npm create` run in another folder; INIT_CWD is where the user typed.
  const here = process.env.INIT_CWD ?? process.cwd();
  // Ctrl+C or a `kill` while the project is written stops the work and removes what was
  // written, rather than leaving a hidden staging folder (and an npm packing into it) behind.
  const interrupt = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    interrupt.abort(new Interrupted(signal));
  };
  // Until the project is written, a second Ctrl+C aborts nothing more and cannot cut the
  // clean-up short.
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const project = await createProject({
    ...choices,
    directory: path.resolve(here, choices.directory),
    ...(args.name ? { name: args.name } : {}),
    packageManager: manager,
    ...(managerVersion === undefined ? {} : { packageManagerVersion: managerVersion }),
    onProgress: (step) => progress.step(step),
    signal: interrupt.signal,
  })
    .then(
      (created) => {
        progress.done();
        return created;
      },
      (error: unknown) => {
        progress.failed();
        // The npm that was packing dies of the same Ctrl+C and may fail first: the cause is
        // the interruption either way.
        throw interrupt.signal.aborted ? interrupt.signal.reason : error;
      },
    )
    .finally(() => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    });
  const relative = path.relative(here, project.directory) || '.';
  // A path that climbs more than one level reads better as the absolute one.
  const shown = relative.startsWith(`..${path.sep}..`) ? project.directory : relative;
  const created = `Created ${project.name} with --model ${choices.model} --memory ${choices.memory}.`;
  const installed = !args.skipInstall && (await install(manager, project.directory, created));
  const steps = [
    // A project written in the folder the user is in needs no `cd .` first.
    ...(relative === '.' ? [] : [`cd ${shellPath(shown)}`]),
    ...(installed ? [] : [formatCommand(installCommand(manager))]),
    formatCommand(scriptCommand(manager, 'test')),
    formatCommand(scriptCommand(manager, 'dev')),
  ];
  prompts.note(steps.join('\n'), installed ? 'Next:' : `${created} Next:`);
  // The docs site and many dev servers hold 3000: say where this agent will be instead.
  prompts.outro(
    `\`${formatCommand(scriptCommand(manager, 'dev'))}\` listens on http://127.0.0.1:${port} (PORT in .env changes it: copy .env.example to .env first). README.md explains every file.`,
  );
}

/**
 * Why the work stopped when `SIGINT` (Ctrl+C) or `SIGTERM` came in while the project was being
 * written: what was written is removed, and the command says so in one line and exits with 130
 * or 143.
 * @claim tsdoc-cw-cli-interrupt
 */
class Interrupted extends Error {
  /** The exit code a shell gives a process this signal ended: 128 + its number. */
  readonly exitCode: number;

  constructor(signal: NodeJS.Signals) {
    super(`interrupted by ${signal}`);
    this.name = 'Interrupted';
    this.exitCode = signal === 'SIGINT' ? 130 : 143;
  }
}

main().catch((error: unknown) => {
  if (error instanceof Interrupted) {
    process.stderr.write(`create-weft: ${error.message}\nNothing was written.\n`);
    process.exitCode = error.exitCode;
    return;
  }
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
