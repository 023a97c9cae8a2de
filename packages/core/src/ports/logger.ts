/** Structured fields of one log entry; never a secret, a token or a lead body. */
export type LogFields = Record<string, unknown>;

/** One level's method: pino's order, fields first, then the message (or the message alone). */
export interface LogMethod {
  (fields: LogFields, message: string): void;
  (message: string): void;
}

/**
 * The Logger port, shaped like pino's so a `pino()` instance plugs in as is:
 * `logger.warn({ code, connectorId }, "lead rejected")`. `child` is optional; without it Vitrina
 * merges the bindings (such as `requestId`) into every entry itself.
 *
 * ```ts
 * createVitrina({ ..., logger: pino() });
 * ```
 */
export interface Logger {
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
  child?(bindings: LogFields): Logger;
}

export type LogLevel = "debug" | "info" | "warn" | "error";
