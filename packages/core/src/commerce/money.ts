import { ValidationError } from "../errors.js";

/**
 * Money is computed in integer minor units so sums never drift: CLP and other zero-decimal
 * currencies have 0 decimals, everything else 2 unless listed. Rounding is half away from zero
 * (all amounts here are ≥ 0, so half up), applied once per line and once to the VAT.
 */
const DECIMALS: Record<string, number> = { CLP: 0, JPY: 0, KRW: 0, PYG: 0, ISK: 0, CLF: 4, BHD: 3, KWD: 3, OMR: 3 };

export function currencyDecimals(currency: string): number {
  return DECIMALS[currency] ?? 2;
}

/**
 * `minor` when it is a safe integer, else 422 naming `field` (`what` says which amount). Past 2^53
 * a double no longer holds every integer, so an amount there would be stored rounded (3 ×
 * 3002399751580331 came out one peso short), or overflow to Infinity and fail later as a 500. Sums
 * and products of safe integers that stay safe are exact, so checking each result suffices.
 */
export function exactMinor(minor: number, field: string, what = "the amount"): number {
  if (Number.isSafeInteger(minor)) return minor;
  throw new ValidationError("amount is invalid", [
    {
      field,
      reason: `${what} is too large: amounts are computed exactly up to ${Number.MAX_SAFE_INTEGER} minor units`,
    },
  ]);
}

/** Converts a major-unit amount to minor units; refuses more decimals than the currency has. */
export function toMinor(amount: number, currency: string, field: string): number {
  const scale = 10 ** currencyDecimals(currency);
  // Checked before the decimals: an amount that overflowed to Infinity slipped past that check
  // (NaN > x is false) and failed later as an `internal` event schema error.
  const minor = exactMinor(Math.round(amount * scale), field);
  if (Math.abs(minor - amount * scale) > 1e-6 * scale) {
    throw new ValidationError("amount is invalid", [
      { field, reason: `${currency} amounts have at most ${currencyDecimals(currency)} decimals` },
    ]);
  }
  return minor;
}

export function fromMinor(minor: number, currency: string): number {
  return minor / 10 ** currencyDecimals(currency);
}

/** VAT of a subtotal in minor units, rate as a fraction (0.19), rounded half up to a minor unit. */
export function vatOf(subtotalMinor: number, rate: number): number {
  // The rate goes to integer millionths first: 0.19 * 3980 in floating point is 756.1999…
  // BigInt keeps large subtotals exact.
  const ppm = BigInt(Math.round(rate * 1_000_000));
  return Number((BigInt(subtotalMinor) * ppm + 500_000n) / 1_000_000n);
}
