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

// Part of the Storage port (lead intake: lead events, their opportunities and first messages.); see storage.ts.

export interface LeadRepository {
  /** Inserts unless (connectorId, sourceLeadId) exists; `false` means it was a duplicate. */
  insertIfNew(lead: LeadEventRecord): Promise<boolean>;
  /**
   * Lead intake's writes in one step: the lead event, its opportunity and its first-message
   * record, all three or none. `false` (nothing written) when (connectorId, sourceLeadId) exists.
   */
  registerIfNew(
    lead: LeadEventRecord,
    opportunity: OpportunityRecord,
    outbound: OutboundMessageRecord,
  ): Promise<boolean>;
  /**
   * Lead intake's writes for a person seen for the first time, in one atomic step that needs no
   * transaction around it: the contact, the lead event, its opportunity and its first-message
   * record. The contact is flagged `possibleDuplicateOf` the workspace's oldest contact with the same
   * email, as `contacts.resolveForLead` would flag it. All or nothing: `false`, with nothing written,
   * when the workspace already has a contact with `contact.phoneE164` (one being created concurrently
   * counts, once it commits) or (connectorId, sourceLeadId) exists; the caller then registers the
   * lead the general way (`resolveForLead`, then `registerIfNew`, in a transaction). Also `false`,
   * with nothing written, when connector `lead.connectorId` is no longer at `secretVersion` (the
   * version whose secret verified the lead): lead intake verifies with a cached secret, and this
   * check, in the same atomic step as the writes, is what makes a rotation stop the old secret at
   * once in every process. Call it outside a transaction: on PostgreSQL a duplicate lead aborts the
   * statement, and with it any transaction around it.
   *
   * `outbound` is written as given. Lead intake hands a message to be sent over already handed over
   * (`queued` with `handedToProviderAt` set, its send lease started): the contact is created by the
   * same step, with the lead's own consent, so nothing can have opted it out, moved its phone or
   * withdrawn its consent, which is all `outbound.claimForSending` would check. No claim of its own follows, and a process that stops
   * before the provider answers leaves the message in flight, for the stuck-message sweep to settle.
   */
  registerNewPerson(
    contact: ContactRecord,
    lead: LeadEventRecord,
    opportunity: OpportunityRecord,
    outbound: OutboundMessageRecord,
    secretVersion: number,
    /** The lead's consent evidence for the consent ledger, written in the same step (absent without consent). */
    consent?: ConsentLedgerEntry,
    /**
     * The keyed hash of `contact.phoneE164` (see `personalData`): `false`, with nothing written, when
     * the workspace holds a suppression entry for it, checked in the same atomic step; the general
     * path then applies the suppression under the contact's lock. Absent: no check.
     */
    phoneHash?: string,
  ): Promise<boolean>;
  findBySourceId(connectorId: string, sourceLeadId: string): Promise<LeadEventRecord | null>;
  get(id: string): Promise<LeadEventRecord | null>;
  countByWorkspace(workspaceId: string): Promise<number>;
}

export interface OpportunityRepository {
  insert(opportunity: OpportunityRecord): Promise<void>;
  get(id: string): Promise<OpportunityRecord | null>;
  listByContact(contactId: string): Promise<OpportunityRecord[]>;
  /**
   * Sets `attribution` on the contact's newest opportunity when it has none yet (the first ad that
   * brought the person back is kept). Returns that opportunity's id when it was set, else null.
   */
  attributeNewest(workspaceId: string, contactId: string, attribution: Record<string, unknown>): Promise<string | null>;
}

export interface OutboundMessageRepository {
  insert(message: OutboundMessageRecord): Promise<void>;
  /** With its `delivery` state (and `status` from it) once the provider reported one. */
  findByLeadEvent(leadEventId: string): Promise<OutboundMessageRecord | null>;
  /**
   * Records the provider's answer for a first message, setting only the outcome's columns (a
   * concurrent write to the others survives). With `thread` (a message that went out), in the same
   * atomic step: the message joins the contact's active WhatsApp conversation, whose `updatedAt`
   * becomes the message's time, or, when the contact has none, `thread.conversation` is opened with
   * it and `thread.started` is appended and fanned out as `events.appendAndFanOut` would. Two calls
   * for one contact never open two threads, whatever their timing. `recorded` is false (and nothing
   * is written) when no message has `outcome.id`.
   */
  recordOutcome(outcome: FirstMessageOutcome, thread?: FirstMessageThread): Promise<RecordedOutcome>;
  listByWorkspace(workspaceId: string): Promise<OutboundMessageRecord[]>;
  /**
   * The contact's most recent first message that is `queued` or `sent` and was created at or after
   * `since` (blocked and failed ones never reached the person). Null when there is none.
   */
  findLatestLiveByContact(workspaceId: string, contactId: string, since: string): Promise<OutboundMessageRecord | null>;
  /**
   * The send lease's compare-and-set: applies `change` only to a message still `queued` that was
   * never handed to the provider (`handedToProviderAt` null) and returns the stored record; null
   * when it is not (another process claimed or settled it first). Of two concurrent claims exactly
   * one gets the record, so a first message is handed to the provider at most once.
   */
  claimUnsent(id: string, change: UnsentMessageChange): Promise<OutboundMessageRecord | null>;
  /**
   * Locks the message's contact (as `getForUpdate`) and, in the same atomic step, hands the
   * message over as `claimUnsent` would with `change`, but only when the contact has not opted
   * out, still has `phoneE164`, and its `whatsappConsent` is still `granted: true` (a later lead
   * may have recorded `granted: false`; no evidence at all fails too). The check reads the locked,
   * committed row: never a value read before the lock, so a withdrawal committing meanwhile counts.
   * Returns the contact as read under the lock (null when it no longer exists) and the claimed
   * record (null when the contact failed the check, or another process claimed or settled the
   * message first). Needs no surrounding transaction.
   */
  claimForSending(
    message: Pick<OutboundMessageRecord, "id" | "workspaceId" | "contactId">,
    phoneE164: string,
    change: HandOver,
  ): Promise<ClaimForSendingResult>;
  /**
   * Marks a message `failed` with `reason` only while it is still in flight (`queued`, handed to
   * the provider, no answer recorded); false when its outcome was recorded meanwhile.
   */
  failInFlight(id: string, reason: string, at: string): Promise<boolean>;
  /**
   * `queued` messages without a provider answer, across workspaces, oldest first, at most `limit`:
   * handed to the provider at or before `before` (the send lease passed), or never handed and
   * created at or before `before`.
   */
  listUnsettled(before: string, limit: number): Promise<OutboundMessageRecord[]>;
}

/** What `claimUnsent` may set: hand the message over (status stays `queued`), or settle it unsent. */
export type UnsentMessageChange =
  HandOver | { status: "blocked" | "failed"; reason: string; handedToProviderAt: null; updatedAt: string };

/** A first message handed to the provider: it stays `queued`, and `handedToProviderAt` starts its send lease. */
export interface HandOver {
  status: "queued";
  reason: string;
  handedToProviderAt: string;
  updatedAt: string;
}

/**
 * `outbound.claimForSending`'s answer: the contact as read under its lock (null when it no longer
 * exists), and the claimed record (null when the contact failed the check, or another process
 * claimed or settled the message first).
 */
export interface ClaimForSendingResult {
  contact: ContactRecord | null;
  claimed: OutboundMessageRecord | null;
}

/** The provider's answer for a first message that was handed to it. */
export interface FirstMessageOutcome {
  id: string;
  status: "sent" | "queued" | "failed";
  reason: string | null;
  providerMessageId: string | null;
  providerAnsweredAt: string;
  updatedAt: string;
}

/** Where a first message that went out is written in the contact's WhatsApp history. */
export interface FirstMessageThread {
  /** Opened only when the contact has no WhatsApp conversation that is not closed. */
  conversation: ConversationRecord;
  /** Stored in whichever conversation ends up holding it (its `conversationId` is set then). */
  message: Omit<MessageRecord, "conversationId">;
  /** `conversation.started` for `conversation`: appended and fanned out only when it was opened. */
  started: EventRecord;
  /** The deliveries' retry deadline, as in `events.appendAndFanOut`. */
  retryUntil: string;
}

export interface RecordedOutcome {
  recorded: boolean;
  /** The conversation now holding the message (null without a thread, or when not recorded). */
  conversationId: string | null;
  /** True when `thread.conversation` was opened (and `thread.started` appended). */
  opened: boolean;
  /** How many deliveries of `thread.started` were written (0 unless opened). */
  deliveries: number;
}
