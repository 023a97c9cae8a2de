import type { OAuthPurgeCounts } from "../ports/oauth-records.js";
import type { Storage } from "../ports/storage.js";
import { DEFAULT_GRANT_LIFETIME_SECONDS } from "./oauth-options.js";

/** How long a registered client no user approved is kept. Default 1 day. */
export const DEFAULT_UNAPPROVED_CLIENT_RETENTION_SECONDS = 24 * 3600;

export interface PurgeExpiredOAuthRecordsOptions {
  /** The server's `grantLifetimeSeconds`: grants older than this are over. Default 90 days. */
  grantLifetimeSeconds?: number;
  /** Clients registered longer ago than this that no user approved are deleted. Default 1 day. */
  unapprovedClientRetentionSeconds?: number;
}

/**
 * Deletes the OAuth records that serve no purpose any more, for a periodic job (worker or CLI):
 * expired authorization codes; refresh tokens past their expiry, spent or not (a spent one is
 * kept until then, because presenting it again is how theft is detected); revoked grants and
 * grants past their absolute lifetime, with their refresh tokens (their access tokens are already
 * refused); and dynamically registered clients no user approved within the retention.
 *
 * ```ts
 * const { codes, grants, refreshTokens, clients } = await purgeExpiredOAuthRecords(storage, new Date());
 * ```
 */
export function purgeExpiredOAuthRecords(storage: Storage, now: Date, options: PurgeExpiredOAuthRecordsOptions = {}): Promise<OAuthPurgeCounts> {
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();
  return storage.oauthTokens.purgeExpired({
    now: now.toISOString(),
    grantsCreatedBefore: ago(options.grantLifetimeSeconds ?? DEFAULT_GRANT_LIFETIME_SECONDS),
    unapprovedClientsCreatedBefore: ago(options.unapprovedClientRetentionSeconds ?? DEFAULT_UNAPPROVED_CLIENT_RETENTION_SECONDS),
  });
}
