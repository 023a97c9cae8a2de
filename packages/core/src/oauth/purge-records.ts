import { VitrinaError } from "../errors.js";
import type { OAuthPurgeCounts } from "../ports/oauth-records.js";
import type { Storage } from "../ports/storage.js";

/** How long a registered client no user approved is kept. Default 1 day. */
export const DEFAULT_UNAPPROVED_CLIENT_RETENTION_SECONDS = 24 * 3600;

export interface PurgeExpiredOAuthRecordsOptions {
  /** Clients registered longer ago than this that no user approved are deleted. Default 1 day. */
  unapprovedClientRetentionSeconds?: number;
  /**
   * At most this many rows of each kind in this call (see `OAuthPurgeCutoffs.limit`); call again
   * while any count reaches it. Default: no bound, everything in one statement.
   */
  limit?: number;
}

/**
 * Deletes the OAuth records that serve no purpose any more, for a periodic job (worker or CLI):
 * expired authorization codes; refresh tokens past their expiry, spent or not (a spent one is
 * kept until then, because presenting it again is how theft is detected); revoked grants and
 * grants past their absolute lifetime, with their refresh tokens (their access tokens are already
 * refused; each grant stores its own end); and dynamically registered clients no user approved within the retention.
 *
 * ```ts
 * const { codes, grants, refreshTokens, clients } = await purgeExpiredOAuthRecords(storage, new Date());
 * ```
 */
export function purgeExpiredOAuthRecords(
  storage: Storage,
  now: Date,
  options: PurgeExpiredOAuthRecordsOptions = {},
): Promise<OAuthPurgeCounts> {
  const retention = options.unapprovedClientRetentionSeconds ?? DEFAULT_UNAPPROVED_CLIENT_RETENTION_SECONDS;
  const { limit } = options;
  if (limit !== undefined && !(Number.isSafeInteger(limit) && limit > 0)) {
    const reason = "must be a positive whole number (rows of each kind per call)";
    return Promise.reject(
      new VitrinaError("invalid_argument", `limit ${reason}`, { reasons: [{ field: "limit", reason }] }),
    );
  }
  return storage.oauthTokens.purgeExpired({
    now: now.toISOString(),
    unapprovedClientsCreatedBefore: new Date(now.getTime() - retention * 1000).toISOString(),
    ...(limit === undefined ? {} : { limit }),
  });
}
