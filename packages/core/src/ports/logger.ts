/**
 * Where Vitrina writes what it does (`createVitrina({ logger })`): a message and structured
 * fields (ids, codes, durations; never secrets). Shaped like pino's and most loggers' methods
 * with the arguments swapped, so an adapter is one line per level:
 *
 * @example
 * const logger: Logger = {
 *   debug: (message, fields) => pino.debug(fields, message),
 *   info: (message, fields) => pino.info(fields, message),
 *   warn: (message, fields) => pino.warn(fields, message),
 *   error: (message, fields) => pino.error(fields, message),
 * };
 */
export interface Logger {
  /** Detail for diagnosing; core writes none today, your adapters may. */
  debug(message: string, fields?: Record<string, unknown>): void;
  /** Normal events worth keeping (the demo transport's "would send WhatsApp message"). */
  info(message: string, fields?: Record<string, unknown>): void;
  /** Something went wrong and was handled (a first message failed, a subscription disabled after 410 Gone). */
  warn(message: string, fields?: Record<string, unknown>): void;
  /** An error behind a 500 or a failed background step (an outbox sweep, recording a webhook attempt). */
  error(message: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** One JSON line per entry on the console; good enough for a demo and for log shippers. */
export const consoleLogger: Logger = {
  debug: (message, fields) => console.debug(JSON.stringify({ level: "debug", message, ...fields })),
  info: (message, fields) => console.info(JSON.stringify({ level: "info", message, ...fields })),
  warn: (message, fields) => console.warn(JSON.stringify({ level: "warn", message, ...fields })),
  error: (message, fields) => console.error(JSON.stringify({ level: "error", message, ...fields })),
};
