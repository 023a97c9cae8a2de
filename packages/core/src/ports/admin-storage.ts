import type { ConnectorRecord, OutboundStatus, RejectedQualification } from "./records.js";

/** A page request: at most `limit` rows strictly after the row with id `startingAfter`. */
export interface PageRequest {
  limit: number;
  startingAfter?: string;
}

/** Connector listings for the admin API, paginated like the webhook lists. */
export interface ConnectorPageRepository {
  /** The workspace's connectors, oldest first (createdAt, then id). An unknown cursor gives an empty page. */
  listPage(workspaceId: string, page: PageRequest): Promise<ConnectorRecord[]>;
}

/**
 * When each API key was last used. Kept out of `ApiKeyRecord` on purpose: it is written on the
 * request path, so it is touched by one conditional statement, never by writing the key back.
 */
export interface ApiKeyUsageRepository {
  /**
   * Sets the key's last use to `now` unless it was already set within `minIntervalMs` (one
   * `UPDATE … WHERE last_used_at IS NULL OR last_used_at < now - interval`); true when it wrote.
   */
  touch(keyId: string, now: string, minIntervalMs: number): Promise<boolean>;
  /** Last use of each of these keys that was ever used. */
  lastUsed(keyIds: string[]): Promise<Map<string, string>>;
}

/** One lead of a connector as the console's "recent leads" shows it. */
export interface ConnectorLeadSummary {
  id: string;
  receivedAt: string;
  sourceLeadId: string;
  /**
   * True when an earlier lead of the workspace had already brought the same contact (a repeat of
   * one person). Re-sends of the same `source_lead_id` are answered from the stored lead and never
   * stored twice, so they do not appear here.
   */
  duplicate: boolean;
  /** The first message's status and reason; null when none was planned (no consent, not eligible). */
  outboundStatus: OutboundStatus | null;
  outboundReason: string | null;
  /** Qualification fields the lead carried but that were refused (the lead itself was accepted). */
  rejectedQualification: RejectedQualification[];
}

/** A connector's leads for the admin API; a new reader, separate from the intake's repository. */
export interface ConnectorLeadRepository {
  /** Newest first (receivedAt, then id), strictly after the lead `startingAfter` of this connector. */
  listByConnector(connectorId: string, page: PageRequest): Promise<ConnectorLeadSummary[]>;
}
