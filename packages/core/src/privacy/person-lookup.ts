import { z } from "zod";
import { NotFoundError, ValidationError } from "../errors.js";
import { e164Phone } from "../validation/e164-phone.js";
import type { ContactRecord } from "../ports/records.js";
import type { Storage } from "../ports/storage.js";
import { parseOrThrow } from "../validation.js";
import { isStorableText } from "../validation/storable-text.js";

const storable = (max: number) =>
  z
    .string()
    .min(1, { error: "must not be empty" })
    .max(max, { error: `must be at most ${max} characters` })
    .refine(isStorableText, { error: "must not contain U+0000 or a lone UTF-16 surrogate" });

/**
 * How an operator names the person whose data is asked for: exactly one of the contact's id, its
 * phone (E.164), its email (case-insensitive) or the provider's user id (WhatsApp's business-scoped
 * `user_id`, for a person who wrote with a username and no phone).
 */
export const personLookupSchema = z.strictObject({
  contact_id: storable(200).optional(),
  phone: e164Phone.optional(),
  email: storable(320).optional(),
  whatsapp_user_id: storable(200).optional(),
});
export type PersonLookup = z.input<typeof personLookupSchema>;

/**
 * The contact `lookup` names in the workspace, or `not_found`; `invalid_argument` (with the field)
 * for a lookup naming no field or more than one. An email shared by several contacts finds the
 * oldest (each such contact is its own person for the law as for Vitrina: export or erase each by id).
 */
export async function findPerson(storage: Storage, workspaceId: string, lookup: unknown): Promise<ContactRecord> {
  const parsed = parseOrThrow(personLookupSchema, lookup, "person lookup");
  const named = Object.keys(parsed).filter((k) => parsed[k as keyof typeof parsed] !== undefined);
  if (named.length !== 1) {
    const reason = "name exactly one of contact_id, phone, email, whatsapp_user_id";
    throw new ValidationError("person lookup is invalid", [{ field: named[1] ?? "", reason }]);
  }
  const contact =
    parsed.contact_id !== undefined
      ? await storage.contacts.get(workspaceId, parsed.contact_id)
      : parsed.phone !== undefined
        ? await storage.contacts.findByPhone(workspaceId, parsed.phone)
        : parsed.email !== undefined
          ? await storage.contacts.findByEmail(workspaceId, parsed.email)
          : await storage.contacts.findByWhatsAppUserId(workspaceId, parsed.whatsapp_user_id!);
  if (contact === null) throw new NotFoundError(`no contact matches this ${named[0]}`);
  return contact;
}
