import type { z } from "zod";
import { ValidationError, type FieldReason } from "./errors.js";

/** Turns zod issues into `{ field, reason }` pairs, one per field at fault (unknown keys each get one). */
export function reasonsFromZod(error: z.ZodError): FieldReason[] {
  const reasons: FieldReason[] = [];
  for (const issue of error.issues) {
    const base = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        reasons.push({ field: base === "" ? key : `${base}.${key}`, reason: "is not a recognised field" });
      }
    } else {
      reasons.push({ field: base, reason: issue.message });
    }
  }
  return reasons;
}

/** Parses `input` with `schema` or throws a ValidationError listing every violation. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(`${what} is invalid`, reasonsFromZod(result.error), { cause: result.error });
  return result.data;
}
