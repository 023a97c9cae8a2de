import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { ConsentEvidence, ConsentLedgerEntry, ConsentSource, ContactRecord } from "../ports/records.js";
import type { StorageTransaction } from "../ports/storage.js";

/** An opt-out or an opt-in, with where it came from and what proves it. */
export interface ConsentChange {
  workspaceId: string;
  contactId: string;
  kind: "opted_out" | "resumed";
  source: ConsentSource;
  sourceRef: string | null;
  evidence: Record<string, unknown>;
  /** When it happened by the evidence (the provider's timestamp; now for a request made to us). */
  occurredAt: string;
  /** For changes that can arrive twice (webhook redeliveries): one ledger entry per key. */
  dedupeKey: string | null;
}

/**
 * The one way consent changes: appends the change to the consent ledger and updates the contact's
 * state, in the caller's transaction. A change the ledger already holds (same `dedupeKey`: a
 * redelivered webhook) changes nothing. An opt-out sets `whatsappOptedOutAt` (the first wins) under
 * the contact's row lock, which is the lock a first message's claim takes: once this commits, no
 * message is handed to the provider. An opt-in clears it when it is not older than the opt-out.
 */
export async function recordConsentChange(
  tx: StorageTransaction,
  deps: { clock: Clock; ids: IdGenerator },
  change: ConsentChange,
): Promise<{ recorded: boolean; contact: ContactRecord | null }> {
  const appended = await tx.consentLedger.append({
    id: deps.ids(),
    ...change,
    recordedAt: deps.clock.now().toISOString(),
  });
  if (!appended) return { recorded: false, contact: await tx.contacts.get(change.workspaceId, change.contactId) };
  const contact =
    change.kind === "opted_out"
      ? await tx.contacts.optOutOfWhatsApp(change.workspaceId, change.contactId, change.occurredAt)
      : await tx.contacts.resumeWhatsApp(change.workspaceId, change.contactId, change.occurredAt);
  return { recorded: true, contact };
}

/**
 * The ledger entry of a lead's consent evidence (granted or withdrawn), keyed by the lead event so
 * a resent lead adds nothing. Lead registration appends it in the same atomic step as the contact.
 */
export function leadConsentEntry(
  ids: IdGenerator,
  contactId: string,
  workspaceId: string,
  consent: ConsentEvidence,
): ConsentLedgerEntry {
  return {
    id: ids(),
    workspaceId,
    contactId,
    kind: consent.granted ? "granted" : "withdrawn",
    source: "lead",
    sourceRef: consent.connectorId,
    evidence: {
      lead_event_id: consent.leadEventId,
      consent_timestamp: consent.timestamp,
      ...(consent.source !== null && { consent_source: consent.source }),
      ...(consent.purpose !== null && { purpose: consent.purpose }),
    },
    // The time the person gave (or refused) consent, as the lead states it.
    occurredAt: isoOr(consent.timestamp, consent.recordedAt),
    recordedAt: consent.recordedAt,
    dedupeKey: `lead:${consent.leadEventId}`,
  };
}

/** `text` as a normalised ISO 8601 UTC time, or `fallback` when it isn't a time. */
function isoOr(text: string, fallback: string): string {
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? fallback : new Date(ms).toISOString();
}
