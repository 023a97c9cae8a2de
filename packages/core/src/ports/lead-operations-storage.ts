import type { ConnectorLeadSummary, PageRequest } from "./admin-storage.js";
import type { ClaimForSendingResult, HandOver } from "./lead-storage.js";
import type { OutboundMessageRecord, OutboundStatus } from "./records.js";

// Part of the Storage port (what operators see of lead intake: refusals, every lead, retries); see storage.ts.

/**
 * One refused lead of a known connector, as an integrator needs it to fix their sender: when, the
 * stable error code, the paths of the fields at fault (never their values), how far the sender's
 * timestamp was from the server's clock, and the request id to find the log line. Never the body, a
 * header's value, a signature or anything about the person.
 */
export interface LeadRefusalRecord {
  id: string;
  connectorId: string;
  at: string;
  code: string;
  /** Dotted paths of the fields at fault, e.g. `contact.phone_e164`; empty when the refusal names none. */
  fields: string[];
  /** Server time minus the request's timestamp in ms (positive: the request is older); null when it had none. */
  skewMs: number | null;
  requestId: string | null;
  /** Refusals of this connector that were not recorded just before this one (over the recording rate). */
  unrecordedBefore: number;
}

/** A bounded log of refused leads per connector: a ring of the newest `keep`. */
export interface LeadRefusalRepository {
  /**
   * Appends `refusal` to its connector's ring, so the connector keeps at most `keep` refusals (the
   * oldest is overwritten), however many processes record at once. Nothing is written, and `false`
   * returned, when no connector has `refusal.connectorId`. One atomic step.
   */
  record(refusal: LeadRefusalRecord, keep: number): Promise<boolean>;
  /** The connector's refusals, newest first, at most `limit`. */
  listByConnector(connectorId: string, limit: number): Promise<LeadRefusalRecord[]>;
  /** Deletes at most `limit` refusals recorded before `before`; returns how many. */
  purgeBefore(before: string, limit: number): Promise<number>;
}

/** Which leads the workspace-wide list shows; every field optional, all given must hold. */
export interface LeadListFilter {
  connectorId?: string;
  /** The first message's stored status, or `none` for leads without one. */
  outboundStatus?: OutboundStatus | "none";
  /** True: only repeats of a person an earlier lead brought; false: only first leads of a person. */
  duplicate?: boolean;
}

/** One lead of the workspace-wide list: the connector's summary plus where it leads. */
export interface WorkspaceLeadSummary extends ConnectorLeadSummary {
  connectorId: string;
  contactId: string;
  opportunityId: string;
  /** The contact's most recently updated conversation, null when there is none. */
  conversationId: string | null;
}

export interface WorkspaceLeadRepository {
  /**
   * The workspace's leads across connectors, newest first (receivedAt, then id), matching `filter`,
   * strictly after the lead `startingAfter` of this workspace (an unknown cursor gives an empty page).
   */
  listPage(workspaceId: string, filter: LeadListFilter, page: PageRequest): Promise<WorkspaceLeadSummary[]>;
  /** The first message of one lead of the workspace, or null. */
  firstMessageOf(workspaceId: string, leadEventId: string): Promise<OutboundMessageRecord | null>;
}

/** Sending a failed first message again, by hand. */
export interface FirstMessageRetryRepository {
  /**
   * `outbound.claimForSending` for a message whose stored status is `failed`: locks the contact,
   * and in the same atomic step hands the message over (status `queued`, `change` applied, the
   * previous provider answer and message id cleared) only when the contact has not opted out,
   * still has `phoneE164`, its consent is still `granted: true`, and no other first message of the
   * contact is `queued` or `sent` (it got its welcome). Of two concurrent retries one claims.
   * Returns the contact as read under the lock and the claimed record (null when refused).
   */
  claimFailed(
    message: Pick<OutboundMessageRecord, "id" | "workspaceId" | "contactId">,
    phoneE164: string,
    change: HandOver,
  ): Promise<ClaimForSendingResult>;
}
