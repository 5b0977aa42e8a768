/**
 * Every environment variable that a first-party package, create-weft or a project it generates
 * reads: the configuration reference's table is generated from this list, and a unit test
 * (tests/unit/configuration-environment.test.ts) fails when the code reads a variable that is
 * not here, when one here is read nowhere, or when a default here is not the code's.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULT_LOG_LEVEL, LOG_LEVELS } from '../../packages/core/src/util/environment';
import { REPOSITORY_ROOT } from '@weft-internal/docs-model/error-registries';

/** One variable, as the reference shows it. */
export interface EnvironmentVariable {
  readonly name: string;
  /** Who reads it, in Markdown. */
  readonly readBy: string;
  /**
   * The value used when it is unset or empty, when the reading code does not show it as
   * `env.NAME?.trim() || 'value'` (then it is read from there; see {@link defaultOf}).
   */
  readonly default?: string;
  /** What it does, in Markdown. */
  readonly effect: string;
  /**
   * The files that read it (from the repository root); the test checks that each reads it, and
   * that one of them holds the default.
   */
  readonly readIn: readonly string[];
}

const TEMPLATES = 'packages/create-weft/templates';
const GENERATED = 'a project made by `create-weft`';

export const ENVIRONMENT_VARIABLES: readonly EnvironmentVariable[] = [
  {
    name: 'WEFT_LOG_LEVEL',
    readBy: '`@weft/core`',
    default: DEFAULT_LOG_LEVEL,
    effect: `The level of the default logger: ${LOG_LEVELS.map((level) => `\`${level}\``).join(', ')}, in any letter case, with blanks around it ignored. Read when a runtime is created without \`options.logger\`; empty or blank counts as unset, and any other value makes \`Runtime.init\` fail with \`WEFT_INVALID_CONFIG\` naming the variable. <!-- claim: cfg-log-level-values -->`,
    readIn: ['packages/core/src/util/environment.ts'],
  },
  {
    name: 'INIT_CWD',
    readBy: '`create-weft`',
    effect:
      'Set by npm to the folder where `npm create weft` or `npm run` was typed; the new project’s folder is resolved from it. Unset, the current directory is used.',
    readIn: ['packages/create-weft/src/cli.ts'],
  },
  {
    name: 'npm_config_user_agent',
    readBy: '`create-weft`',
    effect:
      'Set by the package manager that runs `create-weft` (`npm create`, `yarn create`, `pnpm create`, `bun create`); the new project is installed with the same one. Unset or unknown, npm is used.',
    readIn: ['packages/create-weft/src/cli.ts'],
  },
  {
    name: 'npm_config_model',
    readBy: '`create-weft`',
    effect:
      'Set by npm 11 and earlier when `--model` comes before `--` in `npm create weft@latest`: npm keeps such an option for itself instead of passing it on (npm 12 refuses it with `EUNKNOWNCONFIG` and does not run `create-weft`). When npm runs `create-weft` (or `npm_config_user_agent` is unset or names no package manager `create-weft` knows), a set one stops it with `WEFT_CREATE_INVALID_ARGUMENTS`, naming the option and showing how to give it after `--`, rather than losing it; only `--help` (or `-h`) among the arguments goes before it, and prints the help. <!-- claim: cfg-npm-kept-options -->',
    readIn: ['packages/create-weft/src/arguments.ts'],
  },
  ...(['memory', 'name', 'skip-install'] as const).map((option) => ({
    name: `npm_config_${option.replace('-', '_')}`,
    readBy: '`create-weft`',
    effect: `As \`npm_config_model\`, for \`--${option}\`.`,
    readIn: ['packages/create-weft/src/arguments.ts'],
  })),
  {
    name: 'npm_config_registry',
    readBy: '`create-weft`',
    effect:
      'Passed on to the install it runs, except when Yarn runs `create-weft` and it is Yarn’s default registry, as Yarn 1’s `yarn create` sets it: then it is left out, so the install reads the registry of your `.npmrc` as `yarn create` did. <!-- claim: cfg-npm-registry -->',
    readIn: ['packages/create-weft/src/install-environment.ts'],
  },
  {
    name: 'PORT',
    readBy: GENERATED,
    effect:
      'The HTTP port of the agent; `0` lets the operating system pick a free one. A value other than a whole number from 0 to 65535 in digits (`0x50` and `1e3` are refused too) stops the agent at start with a message naming the variable; blanks around it are ignored, and an empty or blank one counts as unset. <!-- claim: cfg-template-port-checked -->',
    readIn: [`${TEMPLATES}/base/src/env.ts`],
  },
  {
    name: 'HOST',
    readBy: GENERATED,
    effect:
      'The interface the agent listens on. The default accepts connections from this machine only; a container image sets `0.0.0.0` so that its published port reaches the agent. Blanks around it are ignored, and an empty or blank one counts as unset; a value with a space inside stops the agent at start with a message naming the variable. <!-- claim: cfg-template-host-checked -->',
    readIn: [`${TEMPLATES}/base/src/env.ts`],
  },
  {
    name: 'WEFT_MEMORY_PATH',
    readBy: `${GENERATED}, with SQLite memory`,
    effect:
      'The SQLite file memories are kept in; its folder is created when missing. `:memory:` keeps nothing after the process ends.',
    readIn: [`${TEMPLATES}/memory/sqlite/src/memory.ts`],
  },
  {
    name: 'OPENAI_API_KEY',
    readBy: `${GENERATED}, with the OpenAI model`,
    effect:
      'The API key. Required: the agent refuses to start without it, with a message naming the variable. <!-- claim: cfg-template-openai-key-required -->',
    readIn: [`${TEMPLATES}/model/openai/src/model.ts`],
  },
  {
    name: 'OPENAI_BASE_URL',
    readBy: `${GENERATED}, with the OpenAI model`,
    effect:
      'The API’s address, for an OpenAI-compatible server or a proxy. A value the model provider refuses here or in the other two variables, such as an address without its scheme (`api.openai.com/v1`), stops the agent at start with a message naming the three variables and the option at fault. <!-- claim: cfg-template-model-settings-checked -->',
    readIn: [`${TEMPLATES}/model/openai/src/model.ts`],
  },
  {
    name: 'OPENAI_MODEL',
    readBy: `${GENERATED}, with the OpenAI model`,
    effect: 'The model name.',
    readIn: [`${TEMPLATES}/model/openai/src/model.ts`],
  },
  {
    name: 'OLLAMA_BASE_URL',
    readBy: `${GENERATED}, with the Ollama model`,
    effect:
      'The address of Ollama’s OpenAI-compatible API. As with `OPENAI_BASE_URL`, a value the model provider refuses here or in the other two variables stops the agent at start with a message naming them. <!-- claim: cfg-template-ollama-settings-checked -->',
    readIn: [`${TEMPLATES}/model/ollama/src/model.ts`],
  },
  {
    name: 'OLLAMA_MODEL',
    readBy: `${GENERATED}, with the Ollama model`,
    effect: 'The model name, as `ollama list` shows it.',
    readIn: [`${TEMPLATES}/model/ollama/src/model.ts`],
  },
  {
    name: 'OLLAMA_API_KEY',
    readBy: `${GENERATED}, with the Ollama model`,
    effect:
      'A key, for a proxy in front of Ollama that asks for one. Unset, no `Authorization` header is sent; a local Ollama needs none.',
    readIn: [`${TEMPLATES}/model/ollama/src/model.ts`],
  },
  ...(
    [
      ['PGHOST', 'host', 'localhost'],
      ['PGPORT', 'port', '5432'],
      ['PGDATABASE', 'database', 'the user name'],
      // pg takes its default user from USER (USERNAME on Windows) as it loads, not from the
      // account, and a container often sets neither; memory-postgres/test/options.test.ts holds it.
      ['PGUSER', 'user name', 'the `USER` variable, `USERNAME` on Windows', 'cfg-pguser-fallback'],
    ] as const
  ).map(
    ([name, part, fallback, claim]: readonly [
      string,
      string,
      string,
      string?,
    ]): EnvironmentVariable => ({
      name,
      readBy: '`@weft/memory-postgres` and `@weft/coordinator-postgres` (through node-postgres)',
      effect: `libpq's variable: node-postgres reads it for the ${part} when the connection string leaves it out (unset: ${fallback}), and the messages that name the server (the memory provider's \`WEFT_POSTGRES_CONNECT_FAILED\`, its \`WEFT_POSTGRES_UNAVAILABLE\` but the one of a busy pool, which names none, the coordinator's \`WEFT_COORDINATOR_CONNECT_FAILED\` and its reconnection warnings) name it the same way.${claim === undefined ? '' : ` <!-- claim: ${claim} -->`}`,
      // Both packages name their server through the core's one reading of a connection string.
      readIn: ['packages/core/src/util/postgres-address.ts'],
    }),
  ),
  {
    name: 'PGPASSWORD',
    readBy: '`@weft/memory-postgres` and `@weft/coordinator-postgres` (through node-postgres)',
    effect:
      'libpq\'s variable: node-postgres logs in with it when the connection string holds no password, and both packages then mask it as `***` in their errors and log lines, as they mask a password in the string (PostgreSQL quotes a password equal to the user name in `password authentication failed for user "..."`). <!-- claim: cfg-pgpassword-masked -->',
    readIn: [
      'packages/memory-postgres/src/options.ts',
      'packages/coordinator-postgres/src/options.ts',
    ],
  },
];

/**
 * The default of a variable: the list's own, or the literal the first file that reads it falls
 * back to (`env.NAME?.trim() || 'value'` or `?? 'value'`), so a template's default is stated once.
 *
 * @param variable - An entry of the list.
 * @returns The default, or `undefined` when there is none.
 */
export function defaultOf(variable: EnvironmentVariable): string | undefined {
  if (variable.default !== undefined) return variable.default;
  for (const path of variable.readIn) {
    const text = readFileSync(join(REPOSITORY_ROOT, path), 'utf8');
    const fallback = new RegExp(
      `env\\.${variable.name}\\b[^;\\n]*?(?:\\|\\||\\?\\?)\\s*(['"])(.+?)\\1`,
    ).exec(text);
    if (fallback?.[2] !== undefined) return fallback[2];
    // A fallback named by a constant (`|| String(DEFAULT_PORT)`): its value, from this file or
    // one it imports.
    const constant = new RegExp(
      `env\\.${variable.name}\\b[^;\\n]*?(?:\\|\\||\\?\\?)\\s*(?:String\\()?([A-Z][A-Z0-9_]*)\\b`,
    ).exec(text)?.[1];
    if (constant !== undefined) {
      const value = constantValue(path, text, constant);
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

/** The literal value of `const <name> = …` in a text. */
function literalConstant(text: string, name: string): string | undefined {
  const declared = new RegExp(`const ${name}\\s*=\\s*(?:(\\d+)|(['"])(.+?)\\2)\\s*;`).exec(text);
  return declared ? (declared[1] ?? declared[3]) : undefined;
}

/** The literal value of constant `name` in a file or in the files it imports. */
function constantValue(file: string, text: string, name: string): string | undefined {
  const own = literalConstant(text, name);
  if (own !== undefined) return own;
  for (const [, imported] of text.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)) {
    const importedPath = join(REPOSITORY_ROOT, dirname(file), `${imported}.ts`);
    // A template's import may name a file another template part supplies.
    if (!existsSync(importedPath)) continue;
    const value = literalConstant(readFileSync(importedPath, 'utf8'), name);
    if (value !== undefined) return value;
  }
  return undefined;
}
