import { z } from "zod";
import { e164Phone } from "../validation/e164-phone.js";
import { ValidationError } from "../errors.js";
import { describeLossyInteger, lossyIntegerLiteral } from "../http/lossy-integers.js";
import { formatJsonPath, MAX_VALUE_REASONS, type JsonPathSegment } from "../http/read-json.js";

const RFC3339_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?Z$/;

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/**
 * Checked by hand: Date.parse rolls `2026-02-30` over to March 2nd instead of refusing it. Zod runs
 * this even when the format check failed; that failure is already reported, so it passes here.
 */
function isRealDateTime(value: string): boolean {
  const match = RFC3339_UTC.exec(value);
  if (match === null) return true;
  const [, y, mo, d, h, mi, sec] = match.map(Number) as number[];
  const daysInMonth = [31, isLeapYear(y!) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo! - 1];
  return daysInMonth !== undefined && d! >= 1 && d! <= daysInMonth && h! <= 23 && mi! <= 59 && sec! <= 59;
}

/**
 * RFC 3339 in UTC only: `2026-01-31T12:00:00Z`, optionally with 1–9 fraction digits. Uppercase `T`
 * and `Z`, no other offset, no leap second (`:60`), and a date that exists on the calendar.
 */
export const isoUtcTimestamp = z
  .string()
  .regex(RFC3339_UTC, { error: "must be an RFC 3339 UTC timestamp such as 2026-01-31T12:00:00Z" })
  .refine(isRealDateTime, { error: "is not a real date and time" });

/** How far ahead of our clock a consent timestamp may be and still count (the sender's clock may run fast). */
export const DEFAULT_CONSENT_CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * Consent records something that already happened: a timestamp later than `now` plus the allowed
 * skew is not consent, and the lead is refused (422 naming `whatsapp_consent.timestamp`) so the
 * sender fixes its data, rather than registered on evidence we know to be false.
 */
export function refuseConsentFromTheFuture(payload: LeadPayload, now: Date, maxSkewMs: number): void {
  const timestamp = payload.whatsapp_consent?.timestamp;
  if (!timestamp) return;
  const latest = now.getTime() + maxSkewMs;
  if (Date.parse(timestamp) <= latest) return;
  throw new ValidationError("lead payload is invalid", [
    {
      field: "whatsapp_consent.timestamp",
      reason: `is in the future (later than ${new Date(latest).toISOString()}); consent must carry the time it was given`,
    },
  ]);
}

/**
 * A JSON object exactly as sent. `z.record` would drop a `__proto__` key without a word; here it
 * stays an own property, so qualification rejects it with a reason like any unknown field.
 */
const jsonObjectAsSent = (error: string, jsonSchema: Record<string, unknown>) =>
  z
    .custom<Record<string, unknown>>((value) => typeof value === "object" && value !== null && !Array.isArray(value), {
      error,
    })
    // A custom check has no JSON Schema of its own (it would publish as `{}`, which accepts anything).
    .meta(jsonSchema);

const optionalText = (max: number) => z.string().trim().min(1).max(max).nullish();

/** Why the number at `container[key]` would not be stored as sent, and what to do; null when it would be. */
function numberNotAsSent(value: number, container: object, key: JsonPathSegment): string | null {
  // JSON.parse overflowed `1e400` to ±Infinity, which JSON.stringify writes as `null`.
  if (!Number.isFinite(value))
    return `is a number too large to store (beyond ±${Number.MAX_VALUE}); send a smaller one, or send it as a string`;
  // `12345678901234567891` was read as the nearest double, which JSON.stringify writes rounded.
  const literal = lossyIntegerLiteral(container, key);
  return literal === undefined ? null : `${describeLossyInteger(literal, "stored")}: send it as a string`;
}

/** The numbers inside `root` that would not be stored as sent, by path. The body reader has already bounded the depth. */
function numbersNotAsSent(
  root: unknown,
  path: JsonPathSegment[] = [],
  found: Array<{ path: JsonPathSegment[]; message: string }> = [],
) {
  if (root === null || typeof root !== "object") return found;
  const entries: Array<[JsonPathSegment, unknown]> = Array.isArray(root) ? [...root.entries()] : Object.entries(root);
  for (const [key, value] of entries) {
    if (found.length >= MAX_VALUE_REASONS) break;
    if (typeof value !== "number") numbersNotAsSent(value, [...path, key], found);
    else {
      const message = numberNotAsSent(value, root, key);
      if (message !== null) found.push({ path: [...path, key], message });
    }
  }
  return found;
}

/** Free-form data stored as sent: a number it can't hold as sent is refused by its path, never changed. */
const freeFormObject = jsonObjectAsSent("must be an object", { type: "object" }).superRefine((value, ctx) => {
  for (const { path, message } of numbersNotAsSent(value))
    // One segment in the reader's notation (`nested[1]`), so the field reads `metadata.nested[1]`.
    ctx.addIssue({ code: "custom", path: [formatJsonPath(path)], message });
});

/**
 * The lead payload, validated strictly: unknown keys are refused with their path rather than
 * silently dropped, except inside `metadata` (free-form, untrusted tracing data) and
 * `qualification` (checked field by field against the workspace's vertical, see qualification.ts).
 */
export const leadPayloadSchema = z.strictObject({
  event: z.literal("lead.created", { error: 'must be "lead.created"' }),
  source_lead_id: z
    .string({ error: "is required: the lead's id in the sending system" })
    .trim()
    .min(1, { error: "must not be empty" })
    .max(200, { error: "must be at most 200 characters" }),
  contact: z.strictObject(
    {
      phone_e164: e164Phone,
      name: optionalText(200),
      email: z.email({ error: "must be an email address" }).max(320).nullish(),
    },
    { error: "is required: an object with at least phone_e164" },
  ),
  context: z
    .strictObject({
      catalog_item_id: optionalText(200),
      source: optionalText(200),
      campaign_id: optionalText(200),
      landing_page: optionalText(2000),
    })
    .nullish(),
  qualification: jsonObjectAsSent("must be an object of field: number", {
    type: "object",
    additionalProperties: { type: "number" },
  }).nullish(),
  whatsapp_consent: z
    .strictObject({
      granted: z.boolean({ error: "must be true or false" }),
      timestamp: isoUtcTimestamp.nullish(),
      source: optionalText(200),
      purpose: optionalText(500),
    })
    .nullish(),
  metadata: freeFormObject.nullish(),
});

export type LeadPayload = z.output<typeof leadPayloadSchema>;
