import { WeftError, type WeftErrorOptions } from '@weft/core';
import type { ErrorRegistry } from '@weft/core/internal';

// <error-codes> generated from the registry by: npm run generate:references
/**
 * The code of an error raised by `@weft/mcp-docs`. The list is closed (a new code is
 * a change to the public API) and stable across versions, so callers branch on the code rather
 * than on messages. Each code has a section of the same name in the errors reference of
 * the documentation, with what raises it, its cause and its fix; the error’s `docsUrl` links it.
 *
 * - `WEFT_DOCS_INVALID_OPTIONS`: The `weft-docs-mcp` command or `startHttpServer` was given an
 *   unknown or bad option.
 * - `WEFT_DOCS_NO_DATA`: The documentation bundle the server answers from is missing or damaged.
 */
export type DocsServerErrorCode = 'WEFT_DOCS_INVALID_OPTIONS' | 'WEFT_DOCS_NO_DATA';
// </error-codes>

/**
 * What the errors reference says about each code of `@weft/mcp-docs`; the code union above
 * and the page are generated from it.
 *
 * @internal
 */
export const DOCS_ERRORS = {
  packageName: '@weft/mcp-docs',
  codes: {
    /** @claim errors-docs-invalid-options */
    WEFT_DOCS_INVALID_OPTIONS: {
      summary:
        'The `weft-docs-mcp` command or `startHttpServer` was given an unknown or bad option.',
      raisedBy: 'the `weft-docs-mcp` command, `startHttpServer`',
      raisers: [
        'mcp-docs/src/cli-options.ts#invalid',
        'mcp-docs/src/http.ts#limitOption',
        'mcp-docs/src/http.ts#allowedHostsOption',
      ],
      cause:
        "the `weft-docs-mcp` command was given an option it does not know, an argument that is no option, `--port`, `--host` or `--allowed-host` without `--http`, or a value it cannot use, such as a `--port` that is not a number from 0 to 65535 or an `--allowed-host` with a scheme, a port or a path, which no `Host` header could match; or a program gave `startHttpServer` a `requestTimeoutMs`, `requestsPerSecond` or `connectionsPerClient` that is not an integer of at least 1, or an `allowedHosts` that is not `true`, `'all'` or a list of such host names.",
      fix: 'the message names the option; run `weft-docs-mcp --help` for the list. A limit of `startHttpServer` takes a whole number from 1 up; none can be turned off. Give a host name as the `Host` header carries it without its port, such as `docs.example.com`.',
    },
    /** @claim errors-docs-no-data-file */
    WEFT_DOCS_NO_DATA: {
      summary: 'The documentation bundle the server answers from is missing or damaged.',
      raisedBy: '`loadDocsBundle`, the `weft-docs-mcp` command',
      raisers: ['mcp-docs/src/bundle.ts#loadDocsBundle'],
      cause:
        'the documentation bundle (`data/docs-bundle.json` in the package, or the file given with `--data` or to `loadDocsBundle`) is missing or is not a bundle this version can read; the message names the file. Installed packages carry their bundle; a clone of the repository has it only after the package is built.',
      fix: 'reinstall the package, or in a clone build the site first (`npm run build` at the root), then run `npm run build -w @weft/mcp-docs`; with `--data`, check the file it names.',
    },
  },
} as const satisfies ErrorRegistry<DocsServerErrorCode>;

/**
 * The error `@weft/mcp-docs` throws on purpose: a {@link WeftError} with a
 * {@link DocsServerErrorCode}. Recognise it with `WeftError.is(error, 'WEFT_DOCS_…')`.
 */
export class DocsServerError extends WeftError<DocsServerErrorCode> {
  /**
   * @param code - What went wrong.
   * @param message - What went wrong and how to fix it, starting with `weft-docs-mcp:`.
   * @param options - The underlying error, and the HTTP status and exposure when it has them.
   */
  constructor(code: DocsServerErrorCode, message: string, options: WeftErrorOptions = {}) {
    super(code, message, options);
    this.name = 'DocsServerError';
  }
}
