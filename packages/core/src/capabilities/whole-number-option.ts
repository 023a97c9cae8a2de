import { VitrinaError } from "../errors.js";

/**
 * A whole-number option of `capabilities`, or its default when left out, checked once in
 * `createVitrina` so a bad value fails at start-up naming the option. Unchecked, `NaN` (an unset
 * environment variable) as the attempt lease made every invoke fail on an Invalid Date, a negative
 * lease let a retry reconcile an attempt that was still running, and the catalog went out with
 * `max-age=NaN`.
 */
export function wholeNumberOption(
  field: string,
  value: number | undefined,
  options: { fallback: number; least: 0 | 1; unit: string },
): number {
  if (value === undefined) return options.fallback;
  if (Number.isSafeInteger(value) && value >= options.least) return value;
  const wanted = options.least === 1 ? "a positive integer" : "a whole number, 0 or more";
  throw new VitrinaError("invalid_argument", `${field} must be ${wanted} (${options.unit}), not ${value}`, {
    reasons: [{ field, reason: `must be ${wanted}` }],
  });
}
