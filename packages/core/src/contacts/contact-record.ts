import type { ContactRecord } from "../ports/records.js";

/**
 * A contact with nothing known about the person but what `known` says: no name, phone or email,
 * no tags, score or consent, not opted out. Lead intake, the WhatsApp webhook, an opt-out by phone,
 * erasure and the test fixtures all start from this one, so a field added to `ContactRecord` gets
 * its "nothing known" value in one place.
 */
export function contactRecord(
  known: Pick<ContactRecord, "id" | "workspaceId" | "createdAt" | "updatedAt"> & Partial<ContactRecord>,
): ContactRecord {
  return {
    name: null,
    phoneE164: null,
    email: null,
    tags: [],
    score: null,
    ltv: null,
    whatsappConsent: null,
    whatsappOptedOutAt: null,
    ...known,
  };
}
