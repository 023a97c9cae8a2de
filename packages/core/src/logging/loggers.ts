import type { LogFields, LogLevel, LogMethod, Logger } from "../ports/logger.js";

/* The stock Logger implementations; the port itself lives in ports/logger.ts. */
const LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error"];

/** Normalises both call shapes to `[fields, message]`. */
function entryOf(first: LogFields | string, second: string | undefined): [LogFields, string] {
  return typeof first === "string" ? [{}, first] : [first, second ?? ""];
}

/** How many `cause`s deep `describeError` follows: enough for wrapper over wrapper, bounded for a cycle. */
const MAX_CAUSE_DEPTH = 4;

/**
 * Turns an Error (or anything thrown) into loggable text: its stack, else its message, then each
 * `cause` under "Caused by:". Wrappers keep their own messages short and free of what the driver
 * said (an error's message may reach the caller; a database's address must not), so the log line
 * is where that detail survives.
 */
export function describeError(error: unknown): string {
  let text = "";
  let current: unknown = error;
  for (let depth = 0; depth <= MAX_CAUSE_DEPTH; depth++) {
    const described =
      current instanceof Error ? (current.stack ?? `${current.name}: ${current.message}`) : String(current);
    text += depth === 0 ? described : `\nCaused by: ${described}`;
    if (!(current instanceof Error) || current.cause === undefined) break;
    current = current.cause;
  }
  return text;
}

/** A logger writing `write(level, fields, message)` for levels at or above `minimum`. */
function levelledLogger(
  minimum: LogLevel,
  write: (level: LogLevel, fields: LogFields, message: string) => void,
  bindings: LogFields = {},
): Logger {
  const method = (level: LogLevel): LogMethod => {
    if (LEVELS.indexOf(level) < LEVELS.indexOf(minimum)) return () => {};
    return ((first: LogFields | string, second?: string) => {
      const [fields, message] = entryOf(first, second);
      write(level, { ...bindings, ...fields }, message);
    }) as LogMethod;
  };
  return {
    debug: method("debug"),
    info: method("info"),
    warn: method("warn"),
    error: method("error"),
    child: (more) => levelledLogger(minimum, write, { ...bindings, ...more }),
  };
}

const jsonLine = (level: LogLevel, fields: LogFields, message: string) =>
  JSON.stringify({ level, time: new Date().toISOString(), msg: message, ...fields });

export const silentLogger: Logger = levelledLogger("error", () => {});

/**
 * The default when no logger is given: warnings and errors as JSON lines on stderr (core can't
 * import `node:*`; `console.error` writes to stderr in Node), so internal errors never vanish.
 */
export const defaultLogger: Logger = levelledLogger("warn", (level, fields, message) =>
  console.error(jsonLine(level, fields, message)),
);

/** Every level as one JSON line on the console (stdout for debug/info, stderr for warn/error). */
export const consoleLogger: Logger = levelledLogger("debug", (level, fields, message) => {
  const line = jsonLine(level, fields, message);
  if (level === "warn" || level === "error") console.error(line);
  else console.log(line);
});

/**
 * The logger for one scope (a request, a worker): the logger's own `child` when it has one
 * (pino keeps its bindings and serializers), otherwise a wrapper merging `bindings` into each entry.
 */
export function childLogger(logger: Logger, bindings: LogFields): Logger {
  if (logger.child !== undefined) return logger.child(bindings);
  const method = (level: LogLevel): LogMethod =>
    ((first: LogFields | string, second?: string) => {
      const [fields, message] = entryOf(first, second);
      logger[level]({ ...bindings, ...fields }, message);
    }) as LogMethod;
  return { debug: method("debug"), info: method("info"), warn: method("warn"), error: method("error") };
}
