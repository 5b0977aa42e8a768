/**
 * The stdio transport for servers the plugin starts: like the SDK's `StdioClientTransport`, but
 * the server runs in a process group of its own, so that closing ends everything it started
 * (a server started through `sh -c` or `npx` is a tree of processes), and closing waits until
 * the group is gone, killing it when it ignores SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * How long a server has to exit after SIGTERM before its group gets SIGKILL. The runtime's
 * `stop()` gives its plugins and providers 2 s together to shut down, and this leaves room for
 * the kill to land.
 */
export const TERM_GRACE_MS = 1_000;

/** How long closing waits for the group to go after SIGKILL, which cannot be ignored. */
const KILL_WAIT_MS = 500;

/**
 * How long after the server's exit its pipes stay open for what it wrote before exiting, when a
 * process outside its group still holds them; then they are closed, and so is the connection.
 */
const EXIT_DRAIN_MS = 200;

/** What starts the server. */
export interface ProcessTransportOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** The longest message the server may write, in bytes; a longer one closes the transport. */
  readonly maxBufferSize: number;
}

/**
 * Whether any process of the group `pgid` is still running. Where `/proc` is there (Linux) its
 * members are read from it, so that a zombie, which is dead but still counted by `kill(0)`
 * until its parent reaps it, does not count; elsewhere `kill(-pgid, 0)` answers.
 * @claim tsdoc-mcp-group-alive-zombie
 */
export function groupAlive(pgid: number): boolean {
  let entries: string[] | undefined;
  try {
    entries = readdirSync('/proc');
  } catch {
    entries = undefined;
  }
  if (entries === undefined) {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch (error) {
      // EPERM: the group exists, owned by someone else.
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (stat !== undefined && stat.pgrp === pgid && stat.state !== 'Z') return true;
  }
  return false;
}

/**
 * The state, parent and process group of a process, from `/proc/<pid>/stat`; undefined when
 * gone.
 */
export function procStat(pid: number): { state: string; ppid: number; pgrp: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may hold spaces; the fields after it are fixed.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', ppid: Number(fields[1]), pgrp: Number(fields[2]) };
}

/**
 * The running processes under `pid` (children, their children, ...) that left its process group,
 * as one that called `setsid` has, and so are out of reach of a signal to the group. Read from
 * `/proc`, so empty where there is none. A process whose parent has already exited hangs under
 * init, not under `pid`, and cannot be found this way.
 */
export function escapedDescendants(pid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  const groups = new Map<number, number>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (stat === undefined || stat.state === 'Z') continue;
    groups.set(Number(entry), stat.pgrp);
    const siblings = children.get(stat.ppid);
    if (siblings === undefined) children.set(stat.ppid, [Number(entry)]);
    else siblings.push(Number(entry));
  }
  const escaped: number[] = [];
  const queue = [...(children.get(pid) ?? [])];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (groups.get(next) !== pid) escaped.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return escaped;
}

function signalProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

/** Whether a process is running; a zombie (dead, not yet reaped) is not. */
export function running(pid: number): boolean {
  const stat = procStat(pid);
  if (stat !== undefined) return stat.state !== 'Z';
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Resolves once the group `pgid` and the processes `strays` are gone, or after `ms`, whichever
 * comes first.
 */
async function groupGone(pgid: number, strays: readonly number[], ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (groupAlive(pgid) || strays.some(running)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** A server process in a group of its own, spoken to over its stdin and stdout. */
export class ProcessGroupTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  private readonly buffer: ReadBuffer;
  private readonly stderrStream = new PassThrough();
  private closing: Promise<void> | undefined;
  /** Set once `onclose` has been called: the end of the output and the process's close both call it. */
  private reportedClosed = false;

  constructor(private readonly options: ProcessTransportOptions) {
    this.buffer = new ReadBuffer({ maxBufferSize: options.maxBufferSize });
  }

  /** The server's standard error, readable before `start`. */
  get stderr(): PassThrough {
    return this.stderrStream;
  }

  /** The server's process id, which is also its group's id; undefined before `start`. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('ProcessGroupTransport already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, [...this.options.args], {
        env: { ...getDefaultEnvironment(), ...this.options.env },
        ...(this.options.cwd ? { cwd: this.options.cwd } : {}),
        stdio: ['pipe', 'pipe', 'pipe'],
        // Its own process group: its pid is the group's id, and signalling -pid reaches every
        // process it started that did not move to another group.
        detached: process.platform !== 'win32',
        shell: false,
      });
      this.child = child;
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => resolve());
      child.once('exit', () => {
        // A server that exits leaves the processes it started behind unless they are ended too,
        // and one of them that inherited its stdout would keep the pipe open, so the connection
        // would never be seen to close: its calls would wait out callTimeoutMs, and no
        // reconnection would start. Ending the group closes the pipes its members hold; pipes a
        // process that left the group holds are let go after EXIT_DRAIN_MS, once what the server
        // wrote before it exited has been read. While closing, end() times the group's end.
        if (this.closing !== undefined) return;
        if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
        setTimeout(() => {
          child.stdin?.destroy();
          child.stdout?.destroy();
          child.stderr?.destroy();
        }, EXIT_DRAIN_MS).unref();
      });
      child.once('close', () => {
        if (this.child === child) this.child = undefined;
        if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
        this.reportClosed();
      });
      // A server that closes its stdout can never answer again, though it runs on: the
      // connection is over at once, whatever ending the server takes (a second, when it ignores
      // SIGTERM), so its calls fail now; the server is ended as close() ends it, and the plugin
      // reconnects.
      child.stdout?.once('end', () => {
        this.reportClosed();
        void this.close();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        // Line by line, reading each message as it completes: the buffer's limit then holds one
        // message, not a message and the start of the next that came in the same chunk.
        for (let start = 0; start < chunk.length;) {
          const newline = chunk.indexOf(0x0a, start);
          const end = newline === -1 ? chunk.length : newline + 1;
          try {
            this.buffer.append(chunk.subarray(start, end));
          } catch (error) {
            // Past the limit the output is no longer read: what the server writes after it, while
            // it is being ended (a second, when it ignores SIGTERM), is neither read nor parsed.
            child.stdout?.removeAllListeners('data');
            child.stdout?.destroy();
            this.onerror?.(error as Error);
            void this.close();
            return;
          }
          this.readMessages();
          start = end;
        }
      });
      child.stderr?.pipe(this.stderrStream);
    });
  }

  private reportClosed(): void {
    if (this.reportedClosed) return;
    this.reportedClosed = true;
    this.onclose?.();
  }

  private readMessages(): void {
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.closing) {
        reject(new Error('Not connected'));
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /**
   * Ends the server, every process of its group and the processes under it that left the group
   * ({@link escapedDescendants}): closes its stdin and sends them SIGTERM, then SIGKILL after
   * {@link TERM_GRACE_MS}, and resolves once they are gone (or SIGKILL had {@link KILL_WAIT_MS}
   * to land).
   * @claim tsdoc-mcp-process-close
   */
  close(): Promise<void> {
    this.closing ??= this.end();
    return this.closing;
  }

  private async end(): Promise<void> {
    const child = this.child;
    const pid = child?.pid;
    this.buffer.clear();
    if (child === undefined || pid === undefined) return;
    child.stdin?.end();
    if (process.platform === 'win32') {
      // No process groups: end the server itself.
      child.kill();
      return;
    }
    // Found before the group is signalled, while their parents still link them to the server.
    const strays = escapedDescendants(pid);
    signalGroup(pid, 'SIGTERM');
    for (const stray of strays) signalProcess(stray, 'SIGTERM');
    if (!(await groupGone(pid, strays, TERM_GRACE_MS))) {
      signalGroup(pid, 'SIGKILL');
      for (const stray of strays.filter(running)) signalProcess(stray, 'SIGKILL');
      await groupGone(pid, strays, KILL_WAIT_MS);
    }
  }
}
