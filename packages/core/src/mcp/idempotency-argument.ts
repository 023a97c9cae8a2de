import { VitrinaError } from "../errors.js";
import type { JsonObjectSchema } from "./tool-definition.js";

/** The argument a write tool takes its idempotency key from, so any MCP client's model can fill it. */
export const IDEMPOTENCY_ARGUMENT = "idempotency_key";
const MAX_KEY_LENGTH = 255;

export const IDEMPOTENCY_SEMANTICS =
  `Pass ${IDEMPOTENCY_ARGUMENT}, a string you choose per intended change (for example a UUID): calling again with the same key ` +
  "and the same arguments never applies the change twice and returns the first outcome; the same key with other arguments is refused; " +
  "use a new key for a new change.";

/** The capability's input schema plus the required `idempotency_key` property. */
export function withIdempotencyArgument(schema: JsonObjectSchema): JsonObjectSchema {
  return {
    ...schema,
    properties: {
      ...schema.properties,
      [IDEMPOTENCY_ARGUMENT]: {
        type: "string",
        minLength: 1,
        maxLength: MAX_KEY_LENGTH,
        description: "Names this logical change; reuse it only to retry the same change",
      },
    },
    required: [...(schema.required ?? []), IDEMPOTENCY_ARGUMENT],
  };
}

const refuse = (reason: string) =>
  new VitrinaError("invalid_argument", "the idempotency key is missing or invalid", {
    reasons: [{ field: IDEMPOTENCY_ARGUMENT, reason }],
  });

/**
 * Splits a write tool's arguments into the capability input and its idempotency key: the
 * `idempotency_key` argument, or `params._meta.idempotencyKey` (still honoured for clients that
 * set it). Both may be given only when they agree.
 */
export function takeIdempotencyKey(
  args: Record<string, unknown>,
  meta: Record<string, unknown> | undefined,
): { input: Record<string, unknown>; key: string } {
  const { [IDEMPOTENCY_ARGUMENT]: argument, ...input } = args;
  const fromMeta = meta?.idempotencyKey;
  if (argument !== undefined && fromMeta !== undefined && argument !== fromMeta)
    throw refuse("differs from params._meta.idempotencyKey; send one key");
  const key = argument ?? fromMeta;
  if (key === undefined) throw refuse(`is required: ${IDEMPOTENCY_SEMANTICS}`);
  if (typeof key !== "string" || key.length === 0 || key.length > MAX_KEY_LENGTH)
    throw refuse(`must be a string of 1 to ${MAX_KEY_LENGTH} characters`);
  return { input, key };
}
