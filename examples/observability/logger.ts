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
    level: process.env.WEFT_LOG_LEVEL ?? 'info',
    base: { service: 'chat', version: process.env.APP_VERSION ?? 'dev' },
    redact: {
      paths: ['headers.authorization', 'apiKey', '*.apiKey'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
