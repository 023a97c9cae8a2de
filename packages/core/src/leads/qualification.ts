import { describeLossyInteger, lossyIntegerLiteral } from "../http/lossy-integers.js";
import type { RejectedQualification, Vertical } from "../ports/records.js";

type FieldKind = "currency" | "number";

/**
 * The qualification fields each vertical accepts. Currency fields are in the workspace currency.
 * Embedders extend this by passing `verticals` to createVitrina.
 */
export type VerticalDefinitions = Record<string, Record<string, FieldKind>>;

export const defaultVerticals: VerticalDefinitions = {
  real_estate: { monthly_income: "currency" },
  generic: {},
};

export interface QualificationOutcome {
  recorded: Array<{ field: string; value: number }>;
  rejected: RejectedQualification[];
}

const RANGE_TEXT = /\d\s*(-|–|to|a|hasta)\s*\$?\d/i;

/** `literal`: what was sent for `value` when the number is not that (see lossyIntegerLiteral). */
function reasonFor(value: unknown, kind: FieldKind, currency: string, literal: string | undefined): string | null {
  const unit = kind === "currency" ? ` (${currency})` : "";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return `must be a finite number${unit}`;
    if (value < 0) return `must be >= 0${unit}`;
    if (literal !== undefined) return `${describeLossyInteger(literal, "recorded")}; send a smaller number${unit}`;
    return null;
  }
  const rangeHint = `ranges are not accepted; send one finite number >= 0${unit}`;
  if (typeof value === "string") {
    return RANGE_TEXT.test(value)
      ? rangeHint
      : `text amounts are not accepted; send a JSON number such as 1000000${unit}`;
  }
  if (Array.isArray(value)) return rangeHint;
  if (typeof value === "object" && value !== null && (Object.hasOwn(value, "min") || Object.hasOwn(value, "max")))
    return rangeHint;
  return `must be a finite number >= 0${unit}`;
}

/**
 * Splits a lead's qualification into fields to record and fields rejected with a reason.
 * Nothing is dropped silently: every key lands in exactly one of the two lists.
 */
export function evaluateQualification(
  qualification: Record<string, unknown> | null | undefined,
  vertical: Vertical | string,
  currency: string,
  verticals: VerticalDefinitions = defaultVerticals,
): QualificationOutcome {
  const outcome: QualificationOutcome = { recorded: [], rejected: [] };
  // Own properties only: `constructor`, `toString` or `__proto__` sent as a field name must not
  // find Object.prototype's members and pass for a known field.
  const fields: Record<string, FieldKind> = Object.hasOwn(verticals, vertical) ? verticals[vertical]! : {};
  const sent = qualification ?? {};
  for (const [field, value] of Object.entries(sent)) {
    const kind = Object.hasOwn(fields, field) ? fields[field] : undefined;
    if (kind === undefined) {
      const accepted = Object.keys(fields);
      outcome.rejected.push({
        field,
        reason: `unknown qualification field for the ${vertical} vertical; accepted: ${accepted.length > 0 ? accepted.join(", ") : "none"}`,
      });
      continue;
    }
    const reason = reasonFor(value, kind, currency, lossyIntegerLiteral(sent, field));
    if (reason === null) outcome.recorded.push({ field, value: value as number });
    else outcome.rejected.push({ field, reason });
  }
  return outcome;
}
