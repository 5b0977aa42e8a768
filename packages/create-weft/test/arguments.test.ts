import { describe, expect, it } from 'vitest';
import { parseArguments, USAGE } from '../src/arguments.js';
import { DEFAULT_MEMORY, DEFAULT_MODEL, MEMORY_CHOICES, MODEL_CHOICES } from '../src/choices.js';
import { CreateWeftError } from '../src/errors.js';
import { assertProjectName } from '../src/project-name.js';

describe('parseArguments', () => {
  it('reads the folder and the choices [claim:gs-flags]', () => {
    expect(
      parseArguments(['my-agent', '--model', 'ollama', '--memory', 'sqlite', '--name', 'bot']),
    ).toEqual({
      directory: 'my-agent',
      model: 'ollama',
      memory: 'sqlite',
      name: 'bot',
      skipInstall: false,
      help: false,
    });
  });

  it.each([
    [['my-agent', '--', '--model', 'openai', '--skip-install']],
    [['--', 'my-agent', '--model', 'openai', '--skip-install']],
  ])(
    'reads the options after a -- that the manager passed on, as bun and pnpm dlx do: %j [claim:create-weft-readme-dashes-other-managers]',
    (argv) => {
      expect(
        parseArguments(argv, { npm_config_user_agent: 'bun/1.3.3 npm/? node/v24.0.0' }),
      ).toEqual({
        directory: 'my-agent',
        model: 'openai',
        memory: undefined,
        name: undefined,
        skipInstall: true,
        help: false,
      });
    },
  );

  it('leaves out what was not given, for prompts or defaults [claim:gs-flags] [claim:create-weft-readme-defaults]', () => {
    expect(parseArguments([])).toEqual({
      directory: undefined,
      model: undefined,
      memory: undefined,
      name: undefined,
      skipInstall: false,
      help: false,
    });
  });

  it.each([
    [
      ['a', '--model', 'gpt'],
      /^--model: "gpt" is not one of openai, ollama, scripted \[WEFT_CREATE_INVALID_ARGUMENTS\]$/,
    ],
    [
      ['a', '--memory', 'redis'],
      /^--memory: "redis" is not one of sqlite, memory \[WEFT_CREATE_INVALID_ARGUMENTS\]$/,
    ],
    [['a', 'b'], /^arguments: one folder expected, got 2 \(a, b\)/],
    [
      ['a', '--colour'],
      /^arguments: .*colour.*; fix: see --help \[WEFT_CREATE_INVALID_ARGUMENTS\]$/,
    ],
    [
      ['a', '--model'],
      /^arguments: .*--model.*; fix: see --help \[WEFT_CREATE_INVALID_ARGUMENTS\]$/,
    ],
  ])(
    'rejects %j, naming what was wrong [claim:create-weft-readme-model-flag] [claim:create-weft-readme-memory-flag] [claim:errors-create-invalid-arguments]',
    (argv, message) => {
      expect(() => parseArguments(argv)).toThrow(CreateWeftError);
      expect(() => parseArguments(argv)).toThrow(message);
    },
  );

  it.each([
    [['a', '--colour', '--help'], {}],
    [['a', '--model', 'gpt', '-h'], {}],
    [['a', 'b', '--', '--help'], {}],
    // npm kept --model (given before --) and passed --help on after --.
    [
      ['a', 'openai', '--help'],
      { npm_config_user_agent: 'npm/11.6.0 node/v22.12.0', npm_config_model: 'true' },
    ],
  ])(
    'gives the help alone for %j, though it would refuse the rest [claim:create-weft-readme-help] [claim:cfg-npm-kept-options]',
    (argv, env: Record<string, string>) => {
      expect(parseArguments(argv, env)).toEqual({ skipInstall: false, help: true });
    },
  );

  it('refuses the options npm kept for itself, given before --, rather than lose them [claim:tsdoc-cw-npm-kept-options] [claim:cfg-npm-kept-options] [claim:create-weft-readme-flags-after-dashes] [claim:create-weft-readme-dashes-other-managers] [claim:errors-create-invalid-arguments]', () => {
    // What `npm create weft@latest my-agent --model openai --skip-install --memory=sqlite` hands
    // over (npm 11): the values npm understood as its own settings, and `openai` as a folder.
    const env = {
      npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false',
      npm_config_model: 'true',
      npm_config_skip_install: 'true',
      npm_config_memory: 'sqlite',
    };
    expect(() => parseArguments(['my-agent', 'openai'], env)).toThrow(
      /^arguments: npm kept --model, --memory, --skip-install for itself, given before --; fix: put the options after --, as in npm create weft@latest my-agent -- --model openai \[WEFT_CREATE_INVALID_ARGUMENTS\]$/,
    );
    expect(() => parseArguments(['my-agent'], { npm_config_name: 'bot' })).toThrow(
      /npm kept --name for itself/,
    );
    // A user agent that names no package manager create-weft knows is taken for npm's.
    expect(() =>
      parseArguments(['my-agent'], { npm_config_user_agent: 'deno/2.1.4', npm_config_name: 'bot' }),
    ).toThrow(/npm kept --name for itself/);
    // Another manager passes the options on itself: whatever it exports is not read.
    expect(
      parseArguments(['my-agent', '--model', 'openai'], {
        ...env,
        npm_config_user_agent: 'yarn/1.22.22 npm/? node/v20.20.2 linux x64',
      }),
    ).toMatchObject({ directory: 'my-agent', model: 'openai' });
    // After `--` npm sets none of them, and its other settings do not matter.
    expect(
      parseArguments(['my-agent', '--model', 'openai'], { npm_config_registry: 'https://x/' }),
    ).toMatchObject({ directory: 'my-agent', model: 'openai' });
  });
});

describe('USAGE', () => {
  it('lists every option with its description starting at one column, and the defaults', () => {
    const lines = USAGE.split('\n');
    const options = lines.slice(lines.indexOf('Options:') + 1).filter((line) => line !== '');
    // An option's line: two spaces, the option, two or more spaces, its description; a
    // description's second line is indented to that column.
    const columns = options.map((line) => /^(?: {2}\S.*?\S {2,}| +)(?=\S)/.exec(line)?.[0].length);
    expect(columns.every((column) => column !== undefined && column === columns[0])).toBe(true);
    expect(options.map((line) => /^ {2}(-\S.*?)(?= {2})/.exec(line)?.[1]).filter(Boolean)).toEqual([
      `--model <${MODEL_CHOICES.join('|')}>`,
      `--memory <${MEMORY_CHOICES.join('|')}>`,
      '--name <name>',
      '--skip-install',
      '-h, --help',
    ]);
    expect(USAGE).toContain(`default ${DEFAULT_MODEL})`);
    expect(USAGE).toContain(`default ${DEFAULT_MEMORY})`);
  });
});

describe('assertProjectName', () => {
  it('accepts names npm accepts for new packages [claim:tsdoc-cw-project-name]', () => {
    expect(() => assertProjectName('my-agent')).not.toThrow();
    expect(() => assertProjectName('@acme/agent')).not.toThrow();
  });

  it.each([
    [
      'My Agent',
      /^project name "My Agent": .*; fix: .*such as "my-agent" \[WEFT_CREATE_INVALID_NAME\]$/,
    ],
    ['.hidden', /^project name "\.hidden": name cannot start with a period/],
    ['node_modules', /^project name "node_modules": .*node_modules is not a valid package name/],
  ])(
    'rejects %s with npm’s reason and a fix [claim:create-weft-readme-valid-name] [claim:tsdoc-cw-project-name]',
    (name, message) => {
      expect(() => assertProjectName(name)).toThrow(message);
    },
  );

  it.each(['Http', 'Node_Modules', `A${'b'.repeat(214)}`])(
    'suggests no name for %s when the one it would make is refused by npm too [claim:errors-create-name-suggestion]',
    (name) => {
      expect(() => assertProjectName(name)).toThrow(
        /; fix: choose a folder name \(or pass --name\) that npm accepts \[WEFT_CREATE_INVALID_NAME\]$/,
      );
    },
  );
});
