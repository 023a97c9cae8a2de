/**
 * What commands print: plain aligned columns for people, `--json` for machines. Tables go to stdout;
 * notes for the person at the console ("shown once") go to stderr so `--json | jq` stays clean.
 */
export interface Output {
  json: boolean;
}

export type Column<T> = [header: string, value: (row: T) => unknown];

export function printList<T>(out: Output, rows: T[], columns: Column<T>[], jsonValue: unknown = rows): void {
  if (out.json) return printJson(jsonValue);
  if (rows.length === 0) return void console.log("(none)");
  const cells = [columns.map(([header]) => header), ...rows.map((row) => columns.map(([, value]) => cell(value(row))))];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => line[i]!.length)));
  for (const line of cells)
    console.log(line.map((text, i) => (i === line.length - 1 ? text : text.padEnd(widths[i]!))).join("  "));
}

/** One record as `key  value` lines (nested values as JSON). */
export function printRecord(out: Output, record: Record<string, unknown>): void {
  if (out.json) return printJson(record);
  const entries = Object.entries(record);
  const width = Math.max(...entries.map(([key]) => key.length));
  for (const [key, value] of entries) console.log(`${key.padEnd(width)}  ${cell(value)}`);
}

export function printJson(value: unknown): void {
  console.log(JSON.stringify(value, null, 2));
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return "-";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}
