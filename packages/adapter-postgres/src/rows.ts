import type { Queryable } from "./driver.js";

/**
 * A timestamptz as `to_json` writes it in a UTC session: `2026-11-28T09:26:47.123456+00:00`, the
 * fraction optional. Checked for its shape only: PostgreSQL writes no impossible date.
 */
const UTC_JSON_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?\+00:00$/;

/**
 * timestamptz comes back as a Date (pg, PGlite), or as text inside JSON (a claim's event and
 * subscription, `to_json`); records carry ISO 8601 UTC strings with milliseconds. UTC text is
 * rewritten rather than parsed, into the string `Date` gives (the fraction cut to milliseconds,
 * not rounded): `Date`'s parser took most of a delivery claim's row mapping; any other text
 * (another session time zone, a year past 9999) goes through `Date`.
 */
export function iso(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  const text = String(value);
  if (UTC_JSON_TIMESTAMP.test(text)) return `${text.slice(0, 19)}.${`${text.slice(20, -6)}000`.slice(0, 3)}Z`;
  return new Date(text).toISOString();
}

export function isoOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : iso(value);
}

/** int8 and numeric come back as strings from pg and as numbers from PGlite. */
export function num(value: unknown): number {
  return Number(value);
}

export function numOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

/** jsonb parameters are sent as JSON text; both drivers parse jsonb results already. */
export function json(value: unknown): string {
  return JSON.stringify(value);
}

/** Runs a query and returns its first row mapped, or null. */
export async function one<T>(q: Queryable, text: string, params: unknown[], map: (row: any) => T): Promise<T | null> {
  const { rows } = await q.query(text, params);
  return rows.length === 0 ? null : map(rows[0]);
}

export async function many<T>(q: Queryable, text: string, params: unknown[], map: (row: any) => T): Promise<T[]> {
  const { rows } = await q.query(text, params);
  return rows.map(map);
}

/**
 * `build(schema)`, built on first use for each schema and the same string from then on. For the
 * statements lead intake runs for every lead, whose texts run to 2 KB: built on every call, such a
 * text cost about 9 µs, most of it hashing the new string to look up its prepared statement's name;
 * the same string again is found at once.
 */
export function textPerSchema(build: (s: string) => string): (s: string) => string {
  const texts = new Map<string, string>();
  return (s) => {
    let text = texts.get(s);
    if (text === undefined) texts.set(s, (text = build(s)));
    return text;
  };
}

/** `$1, $2, …, $n` for an INSERT of n columns. */
export function placeholders(count: number): string {
  return Array.from({ length: count }, (_, i) => `$${i + 1}`).join(", ");
}

/**
 * Whether `error` is a unique violation of `constraint`: the driver's error, or the storage error
 * wrapping it (as `cause`, the way the repositories' queries report it).
 */
export function violates(error: unknown, constraint: string): boolean {
  const isIt = (e: unknown) =>
    (e as { code?: unknown })?.code === "23505" && (e as { constraint?: unknown }).constraint === constraint;
  return isIt(error) || isIt((error as { cause?: unknown } | null)?.cause);
}
