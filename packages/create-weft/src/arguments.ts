import { parseArgs } from 'node:util';
import {
  DEFAULT_MEMORY,
  DEFAULT_MODEL,
  isMemoryChoice,
  isModelChoice,
  MEMORY_CHOICES,
  MODEL_CHOICES,
  type MemoryChoice,
  type ModelChoice,
} from './choices.js';
import { CreateWeftError } from './errors.js';
import { detectPackageManager } from './package-manager.js';

/** What the command line said; anything left out is asked for, or defaulted. */
export interface Arguments {
  directory?: string;
  name?: string;
  model?: ModelChoice;
  memory?: MemoryChoice;
  /** Leaves the install to the user; the next steps then start with it. */
  skipInstall: boolean;
  help: boolean;
}

/**
 * The options `--help` lists, each with what it does; a second line of a description is
 * indented under the first.
 */
const OPTION_HELP: readonly (readonly [string, readonly string[]])[] = [
  [
    `--model <${MODEL_CHOICES.join('|')}>`,
    [`the text model (asked on a terminal; default ${DEFAULT_MODEL})`],
  ],
  [
    `--memory <${MEMORY_CHOICES.join('|')}>`,
    [`where memories are kept (asked on a terminal; default ${DEFAULT_MEMORY})`],
  ],
  ['--name <name>', ["the npm package name (default: the folder's name)"]],
  [
    '--skip-install',
    [
      'writes the project without installing its dependencies',
      '(by default the package manager that ran this installs them)',
    ],
  ],
  ['-h, --help', ['shows this help']],
];

/** The column every description starts at: two spaces past the longest option. */
const DESCRIPTION_COLUMN = 2 + Math.max(...OPTION_HELP.map(([option]) => option.length)) + 2;

/** What `--help` prints: the options' descriptions all start at one column. */
export const USAGE = `Usage: npm create weft@latest <folder> -- [options]

Creates a Weft agent project in <folder>, which must not exist or be empty.

Options:
${OPTION_HELP.flatMap(([option, lines]) =>
  lines.map((line, index) => (index === 0 ? `  ${option}` : '').padEnd(DESCRIPTION_COLUMN) + line),
).join('\n')}
`;

/**
 * The variables npm sets for this command's options when they come before `--`: npm reads them
 * as settings of its own (it warns "Unknown cli config") and exports them as `npm_config_*`
 * instead of passing them on, so `--skip-install` or `--memory=sqlite` would be lost without a
 * word, and `--model openai` would leave `openai` behind as a second folder. Only npm is
 * asked about them: pnpm, Yarn and bun pass the options after the folder on as they are.
 */
const NPM_KEPT_OPTIONS: Readonly<Record<string, string>> = {
  model: 'npm_config_model',
  memory: 'npm_config_memory',
  name: 'npm_config_name',
  'skip-install': 'npm_config_skip_install',
};

/**
 * Reads the command line.
 *
 * @param argv - The arguments after the command's name.
 * @param env - The environment the command runs in, where npm leaves the options it kept
 * (read only when `npm_config_user_agent` names npm).
 * @returns What it says; what it leaves out stays undefined, and the switches false.
 * A `--` among them is left out, so the options after it are read as options: npm takes it
 * away itself, while bun and `pnpm dlx` pass it on. A `--help` or `-h` anywhere asks for the
 * help alone: the other arguments are not checked, since whoever asks for help may not know
 * them yet.
 * @throws {@link CreateWeftError} naming an option npm kept for itself (given before `--`), an
 * unknown option, a second folder, or a `--model` or `--memory` that is not one of the choices.
 * @claim tsdoc-cw-npm-kept-options
 */
export function parseArguments(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): Arguments {
  // npm takes the `--` before the options away; bun and `pnpm dlx` hand it on as it is, where
  // parseArgs would read every option after it as a folder.
  const dashes = argv.indexOf('--');
  const args = dashes === -1 ? [...argv] : [...argv.slice(0, dashes), ...argv.slice(dashes + 1)];
  if (args.some((arg) => arg === '--help' || arg === '-h')) {
    return { skipInstall: false, help: true };
  }
  const ranByNpm = detectPackageManager(env.npm_config_user_agent) === 'npm';
  const kept = Object.entries(NPM_KEPT_OPTIONS)
    .filter(([, variable]) => ranByNpm && env[variable] !== undefined)
    .map(([option]) => option);
  if (kept.length > 0) {
    throw new CreateWeftError(
      'WEFT_CREATE_INVALID_ARGUMENTS',
      `arguments: npm kept ${kept.map((option) => `--${option}`).join(', ')} for itself, given before --; fix: put the options after --, as in npm create weft@latest my-agent -- --model openai`,
    );
  }
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        model: { type: 'string' },
        memory: { type: 'string' },
        name: { type: 'string' },
        'skip-install': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new CreateWeftError(
      'WEFT_CREATE_INVALID_ARGUMENTS',
      `arguments: ${(error as Error).message}; fix: see --help`,
    );
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) {
    throw new CreateWeftError(
      'WEFT_CREATE_INVALID_ARGUMENTS',
      `arguments: one folder expected, got ${positionals.length} (${positionals.join(', ')}); fix: quote a name with spaces`,
    );
  }
  const { model, memory } = values;
  if (model !== undefined && !isModelChoice(model)) {
    throw new CreateWeftError(
      'WEFT_CREATE_INVALID_ARGUMENTS',
      `--model: "${model}" is not one of ${MODEL_CHOICES.join(', ')}`,
    );
  }
  if (memory !== undefined && !isMemoryChoice(memory)) {
    throw new CreateWeftError(
      'WEFT_CREATE_INVALID_ARGUMENTS',
      `--memory: "${memory}" is not one of ${MEMORY_CHOICES.join(', ')}`,
    );
  }
  return {
    directory: positionals[0],
    name: values.name,
    model,
    memory,
    skipInstall: values['skip-install'] ?? false,
    help: values.help ?? false,
  };
}
