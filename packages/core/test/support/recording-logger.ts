import type { Logger } from "@vitrina/core";

export interface LogEntry {
  level: string;
  fields: Record<string, unknown>;
  message: string;
}

/** A logger that keeps every entry, for tests that check what operators would see. */
export function recordingLogger(): { logger: Logger; entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const log =
    (level: string) =>
    (fields: unknown, message?: string): void => {
      entries.push(
        typeof fields === "string"
          ? { level, fields: {}, message: fields }
          : { level, fields: fields as Record<string, unknown>, message: message ?? "" },
      );
    };
  return { logger: { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") }, entries };
}
