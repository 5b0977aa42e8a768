/**
 * The environment variables the core reads, parsed in one place. `Runtime.init` reports a bad
 * value among its configuration problems; the default logger reads the checked value.
 */

/** The levels the default logger accepts in `WEFT_LOG_LEVEL`, most verbose first. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** The level of the default logger when `WEFT_LOG_LEVEL` is unset or empty. */
export const DEFAULT_LOG_LEVEL = 'info';

/** What the core reads from the environment, and what was wrong with it. */
export interface CoreEnvironment {
  /** The default logger's level. */
  logLevel: (typeof LOG_LEVELS)[number];
  /** One message per bad variable, naming it and its allowed values. */
  problems: string[];
}

/**
 * Reads the core's variables.
 *
 * @param env - The environment: `process.env` in Node.js, empty in a browser.
 * @returns The values (defaults where a variable is unset or bad) and the problems.
 */
export function readCoreEnvironment(
  env: Readonly<Record<string, string | undefined>>,
): CoreEnvironment {
  const raw = env.WEFT_LOG_LEVEL?.trim() ?? '';
  const level = raw === '' ? DEFAULT_LOG_LEVEL : raw.toLowerCase();
  if ((LOG_LEVELS as readonly string[]).includes(level)) {
    return { logLevel: level as CoreEnvironment['logLevel'], problems: [] };
  }
  return {
    logLevel: DEFAULT_LOG_LEVEL,
    problems: [
      `WEFT_LOG_LEVEL: ${JSON.stringify(raw.slice(0, 40))} is not a log level; set one of ${LOG_LEVELS.join(', ')}, or unset it for ${DEFAULT_LOG_LEVEL}`,
    ],
  };
}
