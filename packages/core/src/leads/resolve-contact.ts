import { VitrinaError } from "../errors.js";
import type { ConsentEvidence, ContactRecord } from "../ports/records.js";
import type { StorageTransaction } from "../ports/storage.js";
import type { LeadPayload } from "./lead-schema.js";

/**
 * Finds the lead's contact in the workspace by phone, or creates it, and returns it locked for the
 * rest of the transaction (so the decision to message it is taken on a row no concurrent opt-out
 * can change underneath).
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
): Promise<ContactRecord> {
  const { workspaceId, contact: lead, now } = input;
  let contact = await tx.contacts.findByPhone(workspaceId, lead.phone_e164);
  if (contact === null) {
    const sameEmail = lead.email ? await tx.contacts.findByEmail(workspaceId, lead.email) : null;
    // Concurrent leads for the same phone race here; the unique (workspace, phone) key picks one.
    // The row we insert stays invisible and its key blocks the others until we commit: it is ours.
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
      ...(sameEmail !== null && { possibleDuplicateOf: sameEmail.id }),
      createdAt: now,
      updatedAt: now,
    });
    if (inserted.created) return inserted.contact;
    contact = inserted.contact;
  }
  let locked = await tx.contacts.getForUpdate(workspaceId, contact.id);
  if (locked === null) throw new VitrinaError("internal", `contact ${contact.id} vanished while resolving a lead`);
  const fillName = locked.name === null && lead.name != null;
  const fillEmail = locked.email === null && lead.email != null;
  if (fillName || fillEmail) {
    locked =
      (await tx.contacts.fillMissing(
        workspaceId,
        locked.id,
        { name: lead.name ?? null, email: lead.email ?? null },
        now,
      )) ?? locked;
  }
  if (input.consent !== null) {
    locked = (await tx.contacts.patch(workspaceId, locked.id, { whatsappConsent: input.consent }, now)) ?? locked;
  }
  return locked;
}
