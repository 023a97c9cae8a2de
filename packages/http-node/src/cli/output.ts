import type { Writable } from "node:stream";
import type { LogFields, Logger, LogMethod } from "@vitrina/core";

/**
 * What commands print: plain aligned columns for people, `--json` for machines. Tables go to stdout;
 * notes for the person at the console ("shown once") go to stderr so `--json | jq` stays clean. The
 * streams are the ones `main` was given (the process's own when run as `vitrina`).
 */
export interface Output {
  json: boolean;
  stdout: Writable;
  stderr: Writable;
}

export type Column<T> = [header: string, value: (row: T) => unknown];

/** One line on stdout. */
export function printLine(out: Output, text: string): void {
  out.stdout.write(`${text}\n`);
}

/** One line for the person at the console, on stderr. */
export function printNote(out: Output, text: string): void {
  out.stderr.write(`${text}\n`);
}

export function printList<T>(out: Output, rows: T[], columns: Column<T>[], jsonValue: unknown = rows): void {
  if (out.json) return printJson(out, jsonValue);
  if (rows.length === 0) return printLine(out, "(none)");
  const cells = [columns.map(([header]) => header), ...rows.map((row) => columns.map(([, value]) => cell(value(row))))];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => line[i]!.length)));
  for (const line of cells)
    printLine(out, line.map((text, i) => (i === line.length - 1 ? text : text.padEnd(widths[i]!))).join("  "));
}

/** One record as `key  value` lines (nested values as JSON). */
export function printRecord(out: Output, record: Record<string, unknown>): void {
  if (out.json) return printJson(out, record);
  const entries = Object.entries(record);
  const width = Math.max(...entries.map(([key]) => key.length));
  for (const [key, value] of entries) printLine(out, `${key.padEnd(width)}  ${cell(value)}`);
}

export function printJson(out: Output, value: unknown): void {
  printLine(out, JSON.stringify(value, null, 2));
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return "-";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/**
 * Vitrina's default logging (warnings and errors as JSON lines, as `defaultLogger` prints them) on
 * the CLI's stderr, so a run's log lines go where its other messages go.
 */
export function stderrLogger(out: Pick<Output, "stderr">): Logger {
  const line =
    (level: "warn" | "error"): LogMethod =>
    (first: LogFields | string, second?: string) => {
      const [fields, msg] = typeof first === "string" ? [{}, first] : [first, second ?? ""];
      out.stderr.write(`${JSON.stringify({ level, time: new Date().toISOString(), msg, ...fields })}\n`);
    };
  const ignore: LogMethod = () => {};
  return { debug: ignore, info: ignore, warn: line("warn"), error: line("error") };
}
