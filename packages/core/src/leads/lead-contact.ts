import { contactRecord } from "../contacts/contact-record.js";
import type { ConsentEvidence, ContactRecord } from "../ports/records.js";
import type { LeadPayload } from "./lead-schema.js";

/**
 * The contact a lead describes, as the new record it becomes when its phone is new to the
 * workspace. Lead intake hands it to `leads.registerNewPerson` or, when the phone has a contact,
 * to `contacts.resolveForLead`, which finds that contact and locks it for the rest of the
 * transaction (so the decision to message it is taken on a row no concurrent opt-out can change
 * underneath).
 *
 * On WhatsApp the phone is the identity: a lead is never filed under another phone's contact. When
 * the phone is new but the email belongs to another contact, the lead gets a new contact flagged
 * `possibleDuplicateOf` that one, to be merged by a person if they are the same.
 *
 * For a known phone the writes are column-targeted: missing name/email are filled (never
 * overwritten), consent evidence, when the lead carries it, becomes the contact's latest; nothing
 * else is written, so an opt-out committed meanwhile is never erased.
 */
export function leadContact(input: {
  id: string;
  workspaceId: string;
  contact: LeadPayload["contact"];
  consent: ConsentEvidence | null;
  now: string;
}): ContactRecord {
  const { contact: lead, now } = input;
  return contactRecord({
    id: input.id,
    workspaceId: input.workspaceId,
    name: lead.name ?? null,
    phoneE164: lead.phone_e164,
    email: lead.email ?? null,
    whatsappConsent: input.consent,
    createdAt: now,
    updatedAt: now,
  });
}
