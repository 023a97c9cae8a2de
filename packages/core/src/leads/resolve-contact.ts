import type { ConsentEvidence, ContactRecord } from "../ports/records.js";
import type { StorageTransaction } from "../ports/storage.js";
import type { LeadPayload } from "./lead-schema.js";

/**
 * Finds the lead's contact in the workspace (phone first, then email) or creates it. Fields the
 * contact lacks are filled from the lead; fields it has are never overwritten. Consent evidence,
 * when the lead carries it, is recorded as the contact's latest.
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
): Promise<ContactRecord> {
  const { workspaceId, contact: lead, now } = input;
  let contact = await tx.contacts.findByPhone(workspaceId, lead.phone_e164);
  if (contact === null && lead.email) contact = await tx.contacts.findByEmail(workspaceId, lead.email);
  if (contact === null) {
    // Concurrent leads for the same phone race here; the unique (workspace, phone) key picks one.
    const inserted = await tx.contacts.insertOrGetByPhone({
      id: input.newContactId,
      workspaceId,
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
    if (inserted.created) return inserted.contact;
    contact = inserted.contact;
  }
  const filled: ContactRecord = {
    ...contact,
    name: contact.name ?? lead.name ?? null,
    email: contact.email ?? lead.email ?? null,
    // Matched by email with no phone: no other contact holds this phone (we looked it up first).
    phoneE164: contact.phoneE164 ?? lead.phone_e164,
    whatsappConsent: input.consent ?? contact.whatsappConsent,
  };
  const changed =
    filled.name !== contact.name ||
    filled.email !== contact.email ||
    filled.phoneE164 !== contact.phoneE164 ||
    filled.whatsappConsent !== contact.whatsappConsent;
  if (!changed) return contact;
  const updated = { ...filled, updatedAt: now };
  await tx.contacts.update(updated);
  return updated;
}
