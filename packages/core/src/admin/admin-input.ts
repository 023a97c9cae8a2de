import { z } from "zod";
import { ValidationError } from "../errors.js";
import { SCOPES } from "../auth/scopes.js";
import { reasonsFromZod } from "../validation.js";
import { PLAIN_REASONS } from "../validation-reasons.js";
import { isStorableText, UNSTORABLE_TEXT_REASON } from "../validation/storable-text.js";

/** Visible names: trimmed, 1 to 120 characters, storable by every adapter (no U+0000, no lone surrogate). */
const displayName = z
  .string()
  .refine(isStorableText, UNSTORABLE_TEXT_REASON)
  .transform((name) => name.trim())
  .refine((name) => name.length >= 1 && name.length <= 120, "must be 1 to 120 characters");

/** The connector's system identifier: what the intake URL and the CLI name it by. */
const systemId = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
    "must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit (no spaces)",
  );

const role = z.enum(["owner", "admin", "member"]);

const connectorCreate = z.strictObject({ name: displayName, system: systemId });
const apiKeyIssue = z.strictObject({
  name: displayName,
  scopes: z
    .array(z.enum(SCOPES, { error: `must be one of: ${SCOPES.join(", ")}` }))
    .min(1, "choose at least one scope")
    .max(SCOPES.length * 2),
});
const memberAdd = z.strictObject({
  email: z.string().max(254).refine(isStorableText, UNSTORABLE_TEXT_REASON).pipe(z.email("must be an email address")),
  role,
});
const memberUpdate = z.strictObject({ role });
/** The note's length and characters are the contact service's to judge; here only its type. */
const contactOptOut = z.strictObject({ note: z.string().optional() });

function parse<T>(shape: z.ZodType<T>, body: unknown, what: string): T {
  const parsed = shape.safeParse(body, PLAIN_REASONS);
  if (!parsed.success)
    throw new ValidationError(`${what} is invalid`, reasonsFromZod(parsed.error), { cause: parsed.error });
  return parsed.data;
}

/** The admin API's request bodies, as the OpenAPI document publishes them. */
export const adminBodySchemas = { connectorCreate, apiKeyIssue, memberAdd, memberUpdate, contactOptOut };

export type ConnectorCreate = z.infer<typeof connectorCreate>;
export type ApiKeyIssue = z.infer<typeof apiKeyIssue>;
export type MemberAdd = z.infer<typeof memberAdd>;

export const parseConnectorCreate = (body: unknown) => parse(connectorCreate, body, "connector");
export const parseApiKeyIssue = (body: unknown) => parse(apiKeyIssue, body, "API key");
export const parseMemberAdd = (body: unknown) => parse(memberAdd, body, "member");
export const parseMemberUpdate = (body: unknown) => parse(memberUpdate, body, "member update");
export const parseContactOptOut = (body: unknown) => parse(contactOptOut, body, "opt-out");
