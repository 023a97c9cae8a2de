import { contactRecord } from "../contacts/contact-record.js";
import type { ContactRecord } from "../ports/records.js";
import type { TraceEntry } from "../ports/capability-records.js";
import type { ErasureCounts } from "../ports/storage.js";

/**
 * What an erased contact's row keeps: its id, workspace and creation time (aggregate rows still
 * point to it), every other column blank. Adapters write exactly this; the contract reads it back.
 */
export function erasedContact(
  contact: Pick<ContactRecord, "id" | "workspaceId" | "createdAt">,
  at: string,
): ContactRecord {
  return contactRecord({
    id: contact.id,
    workspaceId: contact.workspaceId,
    createdAt: contact.createdAt,
    updatedAt: at,
  });
}

/** A trace entry with what a capability was given and answered dropped: which, when, how it ended stay. */
export function erasedTraceEntry(entry: TraceEntry): TraceEntry {
  const { input: _input, output: _output, error: _error, ...kept } = entry;
  return { ...kept, input: null };
}

/** Zero of every kind, for an adapter to count an erasure into. */
export function noErasureCounts(): ErasureCounts {
  return {
    contacts: 0,
    leads: 0,
    opportunities: 0,
    outbound: 0,
    messages: 0,
    consent: 0,
    events: 0,
    deliveriesCancelled: 0,
    attempts: 0,
    deliveryReports: 0,
    agentRuns: 0,
    tasks: 0,
  };
}
