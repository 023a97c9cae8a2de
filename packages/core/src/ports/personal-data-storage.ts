import type {
  ConsentLedgerEntry,
  ContactRecord,
  ConversationRecord,
  EventRecord,
  LeadEventRecord,
  MessageRecord,
  OpportunityRecord,
  OutboundMessageRecord,
} from "./records.js";
import type { DeliveryStatus } from "./webhook-records.js";

// Part of the Storage port (a person's data on request: export, erasure, suppression); see storage.ts.

/** A webhook delivery as an export shows it: status and times, never the receiver's answers. */
export interface DeliverySummary {
  id: string;
  eventId: string;
  subscriptionId: string;
  status: DeliveryStatus;
  attemptCount: number;
  createdAt: string;
  deliveredAt: string | null;
}

/** The kinds of rows an export reads page by page, and the record each page holds. */
export interface PersonalDataRows {
  leads: LeadEventRecord;
  opportunities: OpportunityRecord;
  outbound: OutboundMessageRecord;
  conversations: ConversationRecord;
  messages: MessageRecord;
  consent: ConsentLedgerEntry;
  events: EventRecord;
}
export type PersonalDataKind = keyof PersonalDataRows;

/**
 * Where a page starts: after the row with this time and id (each kind's own time: `receivedAt` for
 * leads, `recordedAt` for consent, `created` for events, `createdAt` for the rest). Null: the first page.
 */
export interface PageCursor {
  at: string;
  id: string;
}

/**
 * What an erasure keeps so an erased person who had opted out is never messaged again: keyed hashes
 * (HMAC-SHA256, hex) of the phone and of the provider's user id, never the values, and the opt-out's time.
 */
export interface SuppressionEntry {
  workspaceId: string;
  phoneHash: string | null;
  userIdHash: string | null;
  optedOutAt: string;
  createdAt: string;
}

/** How many rows of each kind an erasure removed or redacted. */
export interface ErasureCounts {
  contacts: number;
  leads: number;
  opportunities: number;
  outbound: number;
  messages: number;
  consent: number;
  events: number;
  deliveriesCancelled: number;
  attempts: number;
  deliveryReports: number;
  /** Agent runs whose trace named the contact: each entry's input, output and error dropped. */
  agentRuns: number;
  /** Tasks (policy reviews) whose input named the contact: the input emptied. */
  tasks: number;
}

/** The record of one erasure: who asked, when, and the counts; never the data. */
export interface ErasureRecord {
  id: string;
  workspaceId: string;
  contactId: string;
  /** `console:<user id>`, `api_key:<key id>`, `cli`, `service`… */
  requestedBy: string;
  erasedAt: string;
  counts: ErasureCounts;
}

export interface PersonalDataRepository {
  /**
   * One page of `kind` for the contact, oldest first by (time, id), strictly after `after`, at most
   * `limit` rows, each exactly as the kind's own repository reads it (messages and first messages
   * with their `delivery`). Messages are those of every conversation of the contact; events are those
   * whose `data.contact_id` names it.
   */
  exportPage<K extends PersonalDataKind>(
    workspaceId: string,
    contactId: string,
    kind: K,
    after: PageCursor | null,
    limit: number,
  ): Promise<PersonalDataRows[K][]>;
  /** The deliveries of these events (any workspace row not of `workspaceId` is ignored), oldest first. */
  deliveriesOf(workspaceId: string, eventIds: string[]): Promise<DeliverySummary[]>;
  /**
   * Starts an erasure inside `transaction`: takes the locks that keep a concurrent lead from creating
   * the person again unseen (PostgreSQL: the contacts table in EXCLUSIVE mode, then the contact row),
   * and returns the contact, or null when it does not exist.
   */
  lockForErasure(workspaceId: string, contactId: string): Promise<ContactRecord | null>;
  /**
   * Erases the contact locked by `lockForErasure` (same transaction): blanks its columns (the row
   * stays, unlinkable, so aggregate rows keep their reference), redacts its leads' payloads, source
   * ids and qualification, its opportunities' landing page, qualification and attribution, its
   * messages' text and details, its consent evidence, the data of its events; cancels their pending
   * deliveries; clears their attempts' errors and response prefixes; drops the provider message ids
   * and their delivery reports; clears other contacts' `possibleDuplicateOf` pointing to it. Agent
   * runs, tasks and `agent.run.completed` events whose JSON holds the contact's id (a capability's
   * input naming it) lose their inputs, outputs and errors, or their data. Then
   * stores `suppression` (when given) and `record` with the counts it returns.
   */
  erase(
    workspaceId: string,
    contactId: string,
    plan: { suppression: SuppressionEntry | null; record: Omit<ErasureRecord, "counts">; at: string },
  ): Promise<ErasureCounts>;
  /** The suppression entry matching any of these hashes (the earliest opt-out), or null. */
  findSuppression(
    workspaceId: string,
    hashes: { phoneHash?: string | null; userIdHash?: string | null },
  ): Promise<SuppressionEntry | null>;
  /** The workspace's erasures, newest first. */
  listErasures(workspaceId: string, options: { limit: number }): Promise<ErasureRecord[]>;
}
