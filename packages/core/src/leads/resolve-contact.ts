import type { ConsentEvidence, ContactRecord } from "../ports/records.js";
import type { StorageTransaction } from "../ports/storage.js";
import type { LeadPayload } from "./lead-schema.js";

/**
 * Finds the lead's contact in the workspace by phone, or creates it, and returns it locked for the
 * rest of the transaction (so the decision to message it is taken on a row no concurrent opt-out
 * can change underneath), with `created` when this transaction created it. One storage call
 * (`resolveForLead`: one statement on PostgreSQL).
 *
 * On WhatsApp the phone is the identity: a lead is never filed under another phone's contact. When
 * the phone is new but the email belongs to another contact, the lead gets a new contact flagged
 * `possibleDuplicateOf` that one, to be merged by a person if they are the same.
 *
 * Writes are column-targeted: missing name/email are filled (never overwritten), consent evidence,
 * when the lead carries it, becomes the contact's latest; nothing else is written, so an opt-out
 * committed meanwhile is never erased.
 */
export async function resolveContact(
  tx: StorageTransaction,
  input: {
    workspaceId: string;
    contact: LeadPayload["contact"];
    consent: ConsentEvidence | null;
    newContactId: string;
    now: string;
  },
): Promise<{ contact: ContactRecord; created: boolean }> {
  const { contact: lead, now } = input;
  return tx.contacts.resolveForLead({
    id: input.newContactId,
    workspaceId: input.workspaceId,
    name: lead.name ?? null,
    phoneE164: lead.phone_e164,
    email: lead.email ?? null,
    tags: [],
    score: null,
    ltv: null,
    whatsappConsent: input.consent,
    whatsappOptedOutAt: null,
    createdAt: now,
    updatedAt: now,
  });
}
