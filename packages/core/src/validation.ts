import type { z } from "zod";
import { ValidationError, type FieldReason } from "./errors.js";
import { PLAIN_REASONS } from "./validation-reasons.js";

/** The reason every refusal gives a key the schema doesn't declare. */
export const UNRECOGNISED_FIELD = "is not a recognised field";

/** Turns zod issues into `{ field, reason }` pairs, one per field at fault (unknown keys each get one). */
export function reasonsFromZod(error: z.ZodError): FieldReason[] {
  const reasons: FieldReason[] = [];
  // Zod still runs a field's checks after its type failed (an array's `min` on a string counts the
  // string's characters): once the type is wrong, the rest is noise.
  const wrongType = new Set<string>();
  for (const issue of error.issues) {
    const base = issue.path.map(String).join(".");
    if (wrongType.has(base)) continue;
    if (issue.code === "invalid_type") wrongType.add(base);
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        reasons.push({ field: base === "" ? key : `${base}.${key}`, reason: UNRECOGNISED_FIELD });
      }
    } else {
      reasons.push({ field: base, reason: issue.message });
    }
  }
  return reasons;
}

/**
 * Parses `input` with `schema` or throws a ValidationError listing every violation, each in plain
 * words ("is required", "must be a string, not a number") unless the schema words it itself.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(input, PLAIN_REASONS);
  if (!result.success)
    throw new ValidationError(`${what} is invalid`, reasonsFromZod(result.error), { cause: result.error });
  return result.data;
}
