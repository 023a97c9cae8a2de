import { recordConsentChange } from "../consent/record-consent-change.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { ContactRecord } from "../ports/records.js";
import type { StorageTransaction } from "../ports/storage.js";
import type { SuppressionHasher } from "./suppression-hash.js";

/** The keyed hashes of a person as they arrive (a lead's phone; an inbound message's phone and user id). */
export async function suppressionHashes(
  hasher: SuppressionHasher | null | undefined,
  workspaceId: string,
  person: { phoneE164: string | null; userId?: string | null },
): Promise<{ phoneHash: string | null; userIdHash: string | null } | null> {
  if (hasher == null) return null;
  return {
    phoneHash: person.phoneE164 === null ? null : await hasher.phone(workspaceId, person.phoneE164),
    userIdHash: person.userId == null ? null : await hasher.userId(workspaceId, person.userId),
  };
}

/**
 * An erased person who had opted out stays opted out: when their phone or user id has a suppression
 * entry, `contact` (locked by the caller's transaction) is opted out as of the entry's opt-out,
 * recorded in the consent ledger (`service`, ref `suppression`). A resume on the channel lifts it, as
 * it would have lifted the original opt-out. Returns the contact as it now is.
 */
export async function carryOverSuppression(
  tx: StorageTransaction,
  deps: { clock: Clock; ids: IdGenerator },
  contact: ContactRecord,
  hashes: { phoneHash: string | null; userIdHash: string | null } | null,
): Promise<ContactRecord> {
  if (hashes === null || contact.whatsappOptedOutAt !== null) return contact;
  const entry = await tx.personalData.findSuppression(contact.workspaceId, hashes);
  if (entry === null) return contact;
  const changed = await recordConsentChange(tx, deps, {
    workspaceId: contact.workspaceId,
    contactId: contact.id,
    kind: "opted_out",
    source: "service",
    sourceRef: "suppression",
    evidence: { reason: "erased_person_had_opted_out" },
    occurredAt: entry.optedOutAt,
    dedupeKey: null,
  });
  return changed.contact ?? contact;
}
