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

/** Converts a major-unit amount to minor units; refuses more decimals than the currency has. */
export function toMinor(amount: number, currency: string, field: string): number {
  const scale = 10 ** currencyDecimals(currency);
  const minor = Math.round(amount * scale);
  // Past 2^53 minor units a number no longer holds every integer, and a large amount times the
  // scale can overflow to Infinity (which slipped past the check below, NaN > x being false, and
  // failed later as an `internal` event schema error): refused here, naming the field.
  if (!Number.isSafeInteger(minor)) {
    throw new ValidationError("amount is invalid", [
      {
        field,
        reason: `is too large: ${currency} amounts are computed exactly up to ${Number.MAX_SAFE_INTEGER / scale}`,
      },
    ]);
  }
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
