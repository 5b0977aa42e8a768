/**
 * The server's stdio transport: one JSON-RPC message per line of stdin, as MCP's stdio transport
 * says, with every line bounded. The SDK's own transport closes itself on a line over its limit,
 * and the process then exits with code 0 and no word on stderr; this one refuses the line with
 * a JSON-RPC error, says so on stderr, skips the rest of the line and goes on serving.
 */
import type { Readable, Writable } from 'node:stream';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { logToStderr, type FailureLog } from './answers.js';

/**
 * The longest line (one message) the server reads, in bytes, its ending `\n` or `\r\n` not
 * counted: a request for a docs tool is small, and the same limit bounds an HTTP request's body.
 */
export const MAX_MESSAGE_BYTES = 1_000_000;

/** JSON-RPC's codes for a message that is not JSON, and for one that is not a request. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/** Where {@link BoundedStdioTransport} reads and writes, and its limit. */
export interface BoundedStdioOptions {
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  /** The longest line; {@link MAX_MESSAGE_BYTES} by default. */
  readonly maxLineBytes?: number;
  /** Where refused lines are reported; standard error by default. */
  readonly log?: FailureLog;
}

/**
 * The server end of MCP's stdio transport, with bounded lines. A line longer than
 * `maxLineBytes`, its ending `\n` or `\r\n` not counted, is answered with a JSON-RPC error
 * (`-32600`, id `null`) the moment it passes the limit, reported to `log`, and skipped to its
 * end; a line that is not a JSON-RPC message is answered with `-32700`. Either way the next line
 * is read as usual. While stdout holds more than its buffer takes (a client that does not read
 * the answers), stdin is not read; it is read again once stdout has drained, so the answers
 * waiting in memory stay bounded.
 * @claim tsdoc-docs-stdio-refuse
 * @claim tsdoc-docs-stdio-backpressure
 */
export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly stdin: Readable;
  private readonly stdout: Writable;
  private readonly maxLineBytes: number;
  private readonly log: FailureLog;
  /** The pieces of the line being read, and their length. */
  private pieces: Buffer[] = [];
  private lineBytes = 0;
  /** Set while the rest of an over-long line is being skipped. */
  private skipping = false;
  /** Set by `close()`: stdin is then not read again when stdout drains. */
  private closed = false;
  /** Resolves when stdout drains, while stdin is paused for it. */
  private drained: Promise<void> | undefined;
  /** What was left of a chunk of stdin when stdout filled up, read once it drains. */
  private held: Buffer | undefined;

  constructor(options: BoundedStdioOptions = {}) {
    this.stdin = options.stdin ?? process.stdin;
    this.stdout = options.stdout ?? process.stdout;
    this.maxLineBytes = options.maxLineBytes ?? MAX_MESSAGE_BYTES;
    this.log = options.log ?? logToStderr;
  }

  private readonly onData = (chunk: Buffer): void => {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      this.take(chunk.subarray(start, end));
      if (newline === -1) return;
      this.endLine();
      start = newline + 1;
      if (this.drained !== undefined && start < chunk.length) {
        // stdout is full: the rest of the chunk waits with stdin until it drains.
        this.held = chunk.subarray(start);
        return;
      }
    }
  };

  private readonly onError = (error: Error): void => this.onerror?.(error);

  /**
   * Adds part of a line, refusing the line the moment it passes the limit. A `\r` before the
   * newline (a line ended CRLF) is not counted, so one byte over is let through while that byte
   * is a `\r` that may be the line's last.
   */
  private take(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    this.lineBytes += part.length;
    const over = this.lineBytes - this.maxLineBytes;
    if (over > 1 || (over === 1 && part[part.length - 1] !== 0x0d)) {
      this.pieces = [];
      this.lineBytes = 0;
      this.skipping = true;
      this.log(
        `weft-docs-mcp: refused a message longer than ${this.maxLineBytes} bytes on stdin; skipping to the end of its line`,
      );
      this.refuse(
        INVALID_REQUEST,
        `Invalid request: the message is longer than ${this.maxLineBytes} bytes`,
      );
      return;
    }
    this.pieces.push(part);
  }

  private endLine(): void {
    if (this.skipping) {
      this.skipping = false;
      return;
    }
    const line = Buffer.concat(this.pieces).toString('utf8').replace(/\r$/, '');
    this.pieces = [];
    this.lineBytes = 0;
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch {
      this.log(`weft-docs-mcp: refused a line of stdin that is not a JSON-RPC message`);
      this.refuse(PARSE_ERROR, 'Parse error: the line is not a JSON-RPC message');
      return;
    }
    this.onmessage?.(message);
  }

  /** Answers a message that cannot be read; its id is unknown, so it is null. */
  private refuse(code: number, message: string): void {
    void this.write(`${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } })}\n`);
  }

  /**
   * Writes to stdout. When stdout's buffer is full (the client is not reading), stdin is paused
   * until it drains: each message read could add an answer to the buffer, without bound.
   */
  private write(text: string): Promise<void> {
    if (this.stdout.write(text)) return Promise.resolve();
    this.drained ??= new Promise((resolve) => {
      this.stdin.pause();
      this.stdout.once('drain', () => {
        this.drained = undefined;
        resolve();
        if (this.closed) return;
        const held = this.held;
        this.held = undefined;
        if (held !== undefined) this.onData(held);
        // Reading the held lines may have filled stdout again.
        if (this.drained === undefined) this.stdin.resume();
      });
    });
    return this.drained;
  }

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onError);
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    this.stdin.pause();
    this.closed = true;
    this.pieces = [];
    this.held = undefined;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(serializeMessage(message));
  }
}
