import { describe, expect, it } from 'vitest';
import { parseArguments } from '../src/arguments.js';
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
