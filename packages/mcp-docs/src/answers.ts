/**
 * How the tools answer: text for the assistant, and tool errors (results with `isError`) for
 * input the docs cannot answer, so the assistant reads what was wrong instead of the call
 * failing. An unexpected failure is logged with an id and answered without its details.
 */
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * A problem with the caller's input; its message is shown to the caller as is.
 * @claim tsdoc-docs-tool-input-error
 */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolInputError';
  }
}

/**
 * Where internal failures are reported: stderr, since stdout carries the protocol.
 * @claim tsdoc-docs-failure-log
 */
export type FailureLog = (message: string) => void;

/** The default {@link FailureLog}: each message to stderr, followed by a newline. */
export const logToStderr: FailureLog = (message) => process.stderr.write(`${message}\n`);

/** A tool's answer: `text`, as one text part. */
export function textAnswer(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

/** A tool error (`isError`) whose one text part the assistant reads. */
export function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * Runs a tool's work, turning input problems into tool errors and hiding anything else.
 * @claim tsdoc-docs-guarded
 */
export function guarded<Args>(
  tool: string,
  log: FailureLog,
  work: (args: Args) => CallToolResult,
): (args: Args) => CallToolResult {
  return (args) => {
    try {
      return work(args);
    } catch (error) {
      if (error instanceof ToolInputError) return toolError(error.message);
      const id = randomUUID();
      log(`weft-docs-mcp: ${tool} failed (error id ${id}): ${(error as Error).stack ?? error}`);
      return toolError(
        `${tool} failed on the server; the server's log has the details under id ${id}.`,
      );
    }
  };
}

/**
 * "Did you mean" as a sentence, or nothing when there is no near match.
 * @claim tsdoc-docs-did-you-mean
 */
export function didYouMean(matches: readonly string[]): string {
  return matches.length === 0 ? '' : ` Did you mean: ${matches.join(', ')}?`;
}
