import { ValidationError } from "../errors.js";

const DECIMAL = { integer: /^-?[0-9]+$/, number: /^-?[0-9]+(\.[0-9]+)?$/ };

/**
 * Whether a query parameter is a number written plainly in decimal (`05`, `-3`, `2.5` for a
 * `number`). `Number()` alone read `0x10` as 16, `1e2` as 100, and ` 5`, `+5` or `5.0` as 5, so a
 * typo or an odd client encoding paged silently instead of being told.
 */
export function isDecimal(raw: string, kind: "integer" | "number"): boolean {
  return DECIMAL[kind].test(raw);
}

/** The 422 for a query parameter that is not plain decimal, naming it. */
export function notDecimal(field: string): ValidationError {
  return new ValidationError("query is invalid", [
    { field, reason: "must be written in plain decimal digits, like 20" },
  ]);
}

/** `?name=` as a whole number of plain decimal digits, or undefined when absent; anything else is refused naming it. */
export function queryWholeNumber(params: URLSearchParams, name: string): number | undefined {
  const raw = params.get(name);
  if (raw === null) return undefined;
  if (!/^[0-9]+$/.test(raw)) throw notDecimal(name);
  return Number(raw);
}
