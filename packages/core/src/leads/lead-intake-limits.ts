import { VitrinaError } from "../errors.js";

/** Largest accepted lead body in bytes unless `leadIntake.maxBodyBytes` says otherwise (64 KiB). */
export const DEFAULT_LEAD_BODY_LIMIT = 64 * 1024;
/** The replay window in either direction unless `leadIntake.toleranceMs` says otherwise (5 minutes). */
export const DEFAULT_LEAD_TOLERANCE_MS = 5 * 60 * 1000;

/** The numeric `leadIntake` options of `createVitrina`, as given (each may be missing). */
export interface LeadIntakeLimitOptions {
  maxBodyBytes?: number;
  toleranceMs?: number;
  consentClockSkewMs?: number;
  firstMessage?: { oncePerContactWithinMs?: number; nameFallback?: string };
}

/**
 * Refuses, when Vitrina is created, a `leadIntake` number that is not an integer in range. Every
 * check that uses them compares with `>` or `<=`, and any comparison with NaN is false, so an unset
 * environment variable read with `Number(...)` failed open: `toleranceMs: NaN` accepted leads signed
 * a year ago (no replay window), `maxBodyBytes: NaN` read bodies of any size, and
 * `oncePerContactWithinMs: NaN` answered every lead of a known contact with a 500.
 */
export function checkLeadIntakeLimits(options: LeadIntakeLimitOptions = {}): void {
  const checks: Array<[field: string, value: number | undefined, min: 0 | 1]> = [
    ["maxBodyBytes", options.maxBodyBytes, 1],
    ["toleranceMs", options.toleranceMs, 1],
    ["consentClockSkewMs", options.consentClockSkewMs, 0],
    ["firstMessage.oncePerContactWithinMs", options.firstMessage?.oncePerContactWithinMs, 0],
  ];
  // A blank fallback would send the empty parameter the Cloud API refuses (item 6 of issue 46).
  const fallback = options.firstMessage?.nameFallback;
  if (fallback !== undefined && fallback.trim() === "") {
    const reason = "must not be blank: the WhatsApp Cloud API refuses an empty template parameter";
    throw new VitrinaError("invalid_argument", `leadIntake.firstMessage.nameFallback ${reason}`, {
      reasons: [{ field: "leadIntake.firstMessage.nameFallback", reason }],
    });
  }
  for (const [field, value, min] of checks) {
    if (value === undefined || (typeof value === "number" && Number.isSafeInteger(value) && value >= min)) continue;
    const reason = min === 1 ? "must be a positive integer" : "must be an integer >= 0";
    throw new VitrinaError("invalid_argument", `leadIntake.${field} ${reason}`, {
      reasons: [{ field: `leadIntake.${field}`, reason }],
    });
  }
}
