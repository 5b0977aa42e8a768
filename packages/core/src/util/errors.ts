/**
 * Errors thrown by Weft carry a stable `code` so callers can branch on them without parsing
 * messages, and an optional HTTP `status` that the ServerManager's error handler honours.
 */
export class WeftError extends Error {
  readonly code: string;
  readonly status: number | undefined;

  constructor(code: string, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'WeftError';
    this.code = code;
    this.status = options.status;
  }
}

/** Renders any thrown value as a one-line message, for logs, chains and retry prompts. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}
