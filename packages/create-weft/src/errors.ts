// <error-codes> generated from the registry by: npm run generate:references
/**
 * The code of an error raised by `create-weft`. The list is closed (a new code is
 * a change to the public API) and stable across versions, so callers branch on the code rather
 * than on messages. Each code has a section of the same name in the errors reference of
 * the documentation, with what raises it, its cause and its fix; the error’s `docsUrl` links it.
 *
 * - `WEFT_CREATE_INVALID_ARGUMENTS`: The command line was given an unknown option, a bad choice, or
 *   no folder.
 * - `WEFT_CREATE_INVALID_NAME`: The project name is not one npm accepts for a new package.
 * - `WEFT_CREATE_FOLDER_TAKEN`: The target folder is a file, a folder that is not empty, or a link
 *   that leads to no folder.
 * - `WEFT_CREATE_WRITE_FAILED`: The file system refused to write the project where it was asked.
 * - `WEFT_CREATE_NO_WORKSPACE`: Packages from the workspace were asked for outside a Weft clone.
 * - `WEFT_CREATE_INSTALL_FAILED`: The package manager could not install the project’s dependencies.
 */
export type CreateWeftErrorCode =
  | 'WEFT_CREATE_INVALID_ARGUMENTS'
  | 'WEFT_CREATE_INVALID_NAME'
  | 'WEFT_CREATE_FOLDER_TAKEN'
  | 'WEFT_CREATE_WRITE_FAILED'
  | 'WEFT_CREATE_NO_WORKSPACE'
  | 'WEFT_CREATE_INSTALL_FAILED';
// </error-codes>

/**
 * What the errors reference says about each code of `create-weft`; the code union above and the
 * page are generated from it.
 *
 * @internal
 */
export const CREATE_ERRORS = {
  packageName: 'create-weft',
  /**
   * @claim errors-create-install-failed-written
   * @claim errors-create-not-instanceof
   */
  intro:
    'The command line prints these errors on one line, without a stack trace. All but `WEFT_CREATE_INSTALL_FAILED` stop it before it writes anything; that one comes after the project was written, so the command prints the next steps with the install command and exits with code 1. `createProject` and `assertProjectName` throw them as `CreateWeftError`s, which `WeftError.is(error, code)` recognises like any other Weft error; since `create-weft` does not depend on `@weft/core`, they are not instances of its `WeftError` class, so `instanceof WeftError` is false for them.',
  codes: {
    /** @claim errors-create-invalid-arguments */
    WEFT_CREATE_INVALID_ARGUMENTS: {
      summary: 'The command line was given an unknown option, a bad choice, or no folder.',
      raisedBy: 'the `create-weft` command',
      raisers: ['create-weft/src/arguments.ts#parseArguments', 'create-weft/src/cli.ts#complete'],
      cause:
        'an option `create-weft` does not know or one given without its value, a `--model` or `--memory` that is not one of the choices, more than one folder, an option npm 11 or earlier kept for itself because it came before `--` (`npm create weft@latest my-agent --model openai`; npm 12 refuses such an option itself, with `EUNKNOWNCONFIG`, before `create-weft` runs), or, off a terminal where nothing can be asked, no folder at all.',
      fix: 'the message names the argument; `create-weft --help` lists the options and their choices. With npm, put the options after `--`: `npm create weft@latest my-agent -- --model openai`.',
    },
    /** @claim errors-create-name-suggestion */
    WEFT_CREATE_INVALID_NAME: {
      summary: 'The project name is not one npm accepts for a new package.',
      raisedBy: '`assertProjectName`, `createProject`, the `create-weft` command',
      raisers: ['create-weft/src/project-name.ts#assertProjectName'],
      cause:
        'the project name (the folder’s name, or `--name`) breaks a rule of npm for new package names, such as capital letters, spaces or a leading period. The message gives npm’s reason and, when making the name lower-case and URL-friendly gives one npm accepts, that name.',
      fix: 'choose a folder name, or pass `--name`, that npm accepts, such as the one the message suggests.',
    },
    WEFT_CREATE_FOLDER_TAKEN: {
      summary:
        'The target folder is a file, a folder that is not empty, or a link that leads to no folder.',
      raisedBy: '`createProject`, the `create-weft` command',
      raisers: ['create-weft/src/create-project.ts#writableFolder'],
      cause:
        'the path given for the project is a file, a folder that already holds something, or a symbolic link that leads to no folder (one that leads to an empty folder fills that folder); `create-weft` never writes over files.',
      fix: 'choose a new folder name, or empty the folder first.',
    },
    /** @claim errors-create-write-failed */
    WEFT_CREATE_WRITE_FAILED: {
      summary: 'The file system refused to write the project where it was asked.',
      raisedBy: '`createProject`, the `create-weft` command',
      raisers: ['create-weft/src/create-project.ts#writeFailure'],
      cause:
        'the folder, or the folder it would be made in, is one the user may not write to, on a read-only or full disk, or under a file. The message names the folder and gives the file system’s own answer (`EACCES`, `EROFS`, `ENOSPC`, `ENOTDIR`…); nothing is left behind.',
      fix: 'choose a folder you may write to, on a disk with free space, or fix the folder’s permissions.',
    },
    /** @claim errors-create-no-workspace */
    WEFT_CREATE_NO_WORKSPACE: {
      summary: 'Packages from the workspace were asked for outside a Weft clone.',
      raisedBy: '`createProject`',
      raisers: ['create-weft/src/create-project.ts#createProject'],
      cause:
        '`createProject` was given `source: "workspace"`, which packs the Weft packages of a clone of the Weft repository, but this `create-weft` does not run from a clone, or the `workspaceRoot` it was given is not the root of one.',
      fix: 'run it from a clone (`npm run create-agent`), give `workspaceRoot` the folder of a clone, or leave `source` out to install from the registry.',
    },
    WEFT_CREATE_INSTALL_FAILED: {
      summary: 'The package manager could not install the project’s dependencies.',
      raisedBy: 'the `create-weft` command',
      raisers: ['create-weft/src/install-dependencies.ts#installDependencies'],
      cause:
        'the package manager that ran `create-weft` could not be started, exited with an error, or did not finish in time. The project itself was written.',
      fix: 'the message names the command: go into the project folder and run it yourself, which shows its own output.',
    },
  },
} as const satisfies {
  readonly packageName: string;
  readonly intro?: string;
  readonly codes: {
    readonly [C in CreateWeftErrorCode]: {
      readonly summary: string;
      readonly raisedBy: string;
      readonly raisers: readonly string[];
      readonly cause: string;
      readonly fix: string;
    };
  };
};

// The marker `WeftError.is` of `@weft/core` looks for: create-weft runs before any Weft package
// is installed, so it does not depend on the core, and carries the marker instead of the class.
const WEFT_ERROR = Symbol.for('weft.error');

/**
 * The errors reference page; `@weft/core` holds the same address, and a test keeps them equal.
 *
 * @internal
 */
export const ERRORS_REFERENCE_URL = 'https://weft-ai.github.io/docs/reference/errors/';

/**
 * A problem the user can fix, worded "owner: problem; fix", with a code of its own. The command
 * line prints the message alone, without a stack trace. It has the shape of a `WeftError` of
 * `@weft/core` (`code`, `docsUrl`, the code at the end of the message's first line), and
 * `WeftError.is(error, 'WEFT_CREATE_…')` recognises it.
 */
export class CreateWeftError extends Error {
  /** What went wrong, as a stable string; see {@link CreateWeftErrorCode}. */
  readonly code: CreateWeftErrorCode;
  /** Always `undefined`: these errors answer no HTTP request. */
  readonly status: number | undefined = undefined;
  /** Always `true`: the message is written for the person who ran the command. */
  readonly expose = true;
  /** The address of the code's section in the errors reference. */
  readonly docsUrl: string;

  /**
   * @param code - What went wrong.
   * @param message - "owner: problem; fix"; the code is appended to it.
   * @param options - The underlying error, when there is one.
   */
  constructor(code: CreateWeftErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(
      `${message} [${code}]`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'CreateWeftError';
    this.code = code;
    this.docsUrl = `${ERRORS_REFERENCE_URL}#${code.toLowerCase()}`;
    Object.defineProperty(this, WEFT_ERROR, { value: true });
  }
}
