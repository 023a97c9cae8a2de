import type { z } from "zod";

/*
 * Zod's default messages are written for developers ("Invalid input: expected string, received
 * undefined"). Callers of an HTTP API read `reasons`, so each issue a schema didn't word itself
 * gets a plain reason here. Used as a per-parse error map: a schema's own message still wins, and
 * the app's global zod configuration is left alone.
 */
type RawIssue = z.core.$ZodRawIssue;

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  array: "an array",
  object: "an object",
  record: "an object",
  date: "a date",
  bigint: "an integer",
};

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number" && !Number.isInteger(value)) return "a fractional number";
  return TYPE_NAMES[typeof value] ?? typeof value;
}

function typeReason(expected: string, input: unknown): string {
  if (input === undefined) return "is required";
  // JSON has no Infinity, but a literal beyond the largest double (1e400) parses to it.
  if (typeof input === "number" && !Number.isFinite(input))
    return `is too large: a number must lie within ±${Number.MAX_VALUE}`;
  return `must be ${TYPE_NAMES[expected] ?? expected}, not ${describeValue(input)}`;
}

function sizeReason(
  kind: "least" | "most",
  origin: string,
  limit: number | bigint,
  inclusive: boolean | undefined,
): string {
  if (origin === "string") {
    if (kind === "least" && Number(limit) === 1) return "must not be empty";
    return `must be at ${kind} ${limit} characters`;
  }
  if (origin === "array" || origin === "set")
    return `must have at ${kind} ${limit} item${Number(limit) === 1 ? "" : "s"}`;
  if (inclusive === false) return `must be ${kind === "least" ? "greater" : "less"} than ${limit}`;
  return `must be at ${kind} ${limit}`;
}

/** A plain reason for `issue`, or undefined to keep zod's own message. */
export function plainReason(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      return typeReason(issue.expected, issue.input);
    case "invalid_value":
      if (issue.input === undefined) return "is required";
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "too_small":
      return sizeReason("least", issue.origin, issue.minimum, issue.inclusive);
    case "too_big":
      return sizeReason("most", issue.origin, issue.maximum, issue.inclusive);
    case "invalid_format":
      return issue.format === "email"
        ? "must be an email address"
        : issue.format === "regex"
          ? "has the wrong format"
          : `must be a valid ${issue.format}`;
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    default:
      return undefined;
  }
}

/** Parse parameters that word every issue a schema didn't word itself in plain language. */
export const PLAIN_REASONS = { error: plainReason } as const;
