import type { ConnectorRecord } from "./records.js";

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
