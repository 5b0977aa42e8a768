import {
  pino,
  type DestinationStream,
  type Logger,
  type LoggerOptions,
} from 'pino';

/**
 * A logger of your own for `options.logger`: the level still follows
 * `WEFT_LOG_LEVEL`, every line names the service, and fields that may hold
 * secrets or personal data are masked before they are written.
 */
export function createServiceLogger(destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    name: 'chat-service',
    level: levelFromEnvironment(process.env.WEFT_LOG_LEVEL),
    base: { service: 'chat', version: process.env.APP_VERSION ?? 'dev' },
    redact: {
      paths: ['headers.authorization', 'apiKey', '*.apiKey'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * The level `WEFT_LOG_LEVEL` names, read as the runtime reads it for its own
 * logger: in any case, blanks around it ignored, and `info` when it is unset
 * or empty (as `WEFT_LOG_LEVEL=` in a `.env` file leaves it). pino refuses
 * the raw value in those cases.
 */
export function levelFromEnvironment(value: string | undefined): string {
  return value?.trim().toLowerCase() || 'info';
}
