/**
 * The command line of `weft-docs-mcp`, parsed and checked apart from starting anything, so each
 * bad option has a test and a message naming it.
 */
import { parseArgs } from 'node:util';
import { ALLOWED_HOST_RULE, isAllowedHostEntry } from '@weft/core/internal';
import { DocsServerError } from './errors.js';

/** The command line, checked, with the defaults filled in. */
export interface CliOptions {
  readonly transport: 'stdio' | 'http';
  readonly host: string;
  readonly port: number;
  readonly allowedHosts: readonly string[];
  /** Another bundle file than the package's own, for tests and previews. */
  readonly dataFile?: string;
  readonly help: boolean;
}

/** The port `--http` listens on unless `--port` says otherwise. */
export const DEFAULT_HTTP_PORT = 3920;

/** What `--help` writes to stderr. */
export const USAGE = `Usage: weft-docs-mcp [options]

Serves the Weft documentation of this version to an AI assistant over MCP.

  (no options)            stdio: the assistant starts this command and talks on stdin/stdout
  --http                  streamable HTTP instead, at http://<host>:<port>/mcp
  --port <n>              the HTTP port (${DEFAULT_HTTP_PORT}; 0 picks a free one)
  --host <address>        the HTTP interface (127.0.0.1)
  --allowed-host <name>   a name to accept in Host and Origin besides the loopback names
                          (repeatable; .example.com also accepts its subdomains)
  --data <file>           answer from another documentation bundle
  --help                  this text
`;

function invalid(message: string): DocsServerError {
  return new DocsServerError(
    'WEFT_DOCS_INVALID_OPTIONS',
    `weft-docs-mcp: ${message}. Run weft-docs-mcp --help for the options.`,
  );
}

/**
 * Reads the command's arguments.
 *
 * @param argv - The arguments after the command's name.
 * @returns The options, stdio and no data file unless given.
 * @throws {@link DocsServerError} `WEFT_DOCS_INVALID_OPTIONS` naming an unknown option, an
 * argument, a `--port` that is not a number from 0 to 65535, or `--port`, `--host` or
 * `--allowed-host` without `--http`, or an `--allowed-host` with a scheme, a port or a path,
 * which no `Host` header can match.
 */
export function parseCliOptions(argv: readonly string[]): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        http: { type: 'boolean', default: false },
        port: { type: 'string' },
        host: { type: 'string' },
        'allowed-host': { type: 'string', multiple: true },
        data: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw invalid((error as Error).message.replace(/\.$/, ''));
  }
  const httpOnly = (['port', 'host', 'allowed-host'] as const).filter(
    (name) => values[name] !== undefined,
  );
  if (!values.http && httpOnly.length > 0) {
    throw invalid(`${httpOnly.map((name) => `--${name}`).join(', ')}: for --http only`);
  }
  let port = DEFAULT_HTTP_PORT;
  if (values.port !== undefined) {
    port = Number(values.port);
    if (!/^\d+$/.test(values.port) || port > 65535) {
      throw invalid(`--port must be a number from 0 to 65535, got "${values.port}"`);
    }
  }
  // The server compares each name with the name of the Host header (or of the Origin), its port
  // left out: one with a scheme, a port or a path would match nothing.
  const unmatchable = values['allowed-host']?.find((name) => !isAllowedHostEntry(name));
  if (unmatchable !== undefined) {
    throw invalid(`--allowed-host must be ${ALLOWED_HOST_RULE}, got "${unmatchable}"`);
  }
  return {
    transport: values.http ? 'http' : 'stdio',
    host: values.host ?? '127.0.0.1',
    port,
    allowedHosts: values['allowed-host'] ?? [],
    ...(values.data === undefined ? {} : { dataFile: values.data }),
    help: values.help,
  };
}
