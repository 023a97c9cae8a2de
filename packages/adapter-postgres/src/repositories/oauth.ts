import type { StorageRepositories } from "@vitrina/core";
import type {
  OAuthAuthorizationCodeRecord,
  OAuthClientRecord,
  OAuthRefreshTokenRecord,
  OAuthTokenFamilyRecord,
} from "@vitrina/core/storage";
import { affected, type Queryable } from "../driver.js";
import { iso, isoOrNull, json, one, placeholders } from "../rows.js";

const toClient = (r: any): OAuthClientRecord => ({
  id: r.id,
  secretHash: r.secret_hash,
  tokenEndpointAuthMethod: r.token_endpoint_auth_method,
  redirectUris: r.redirect_uris,
  scopes: r.scopes,
  metadata: r.metadata,
  createdAt: iso(r.created_at),
  approvedAt: isoOrNull(r.approved_at),
});

const toCode = (r: any): OAuthAuthorizationCodeRecord => ({
  codeHash: r.code_hash,
  clientId: r.client_id,
  redirectUri: r.redirect_uri,
  codeChallenge: r.code_challenge,
  resource: r.resource,
  scopes: r.scopes,
  userId: r.user_id,
  workspaceId: r.workspace_id,
  familyId: r.family_id,
  expiresAt: iso(r.expires_at),
  createdAt: iso(r.created_at),
  usedAt: isoOrNull(r.used_at),
});

const toFamily = (r: any): OAuthTokenFamilyRecord => ({
  id: r.id,
  clientId: r.client_id,
  userId: r.user_id,
  workspaceId: r.workspace_id,
  scopes: r.scopes,
  resource: r.resource,
  createdAt: iso(r.created_at),
  expiresAt: iso(r.expires_at),
  revokedAt: isoOrNull(r.revoked_at),
});

const toRefreshToken = (r: any): OAuthRefreshTokenRecord => ({
  tokenHash: r.token_hash,
  familyId: r.family_id,
  scopes: r.scopes,
  expiresAt: iso(r.expires_at),
  createdAt: iso(r.created_at),
  usedAt: isoOrNull(r.used_at),
});

/**
 * The OAuth repositories. "Use once" is one `UPDATE … WHERE used_at IS NULL RETURNING *`: the row
 * lock makes concurrent exchanges of the same code or refresh token queue, and only the first
 * sees `used_at` still null.
 */
export function oauthRepositories(
  q: Queryable,
  s: string,
): Pick<StorageRepositories, "oauthClients" | "oauthCodes" | "oauthTokens"> {
  return {
    oauthClients: {
      async insert(c) {
        await q.query(
          `INSERT INTO ${s}.oauth_clients (id, secret_hash, token_endpoint_auth_method, redirect_uris, scopes, metadata, created_at, approved_at) VALUES (${placeholders(8)})`,
          [
            c.id,
            c.secretHash,
            c.tokenEndpointAuthMethod,
            json(c.redirectUris),
            c.scopes === null ? null : json(c.scopes),
            json(c.metadata),
            c.createdAt,
            c.approvedAt,
          ],
        );
      },
      get: (id) => one(q, `SELECT * FROM ${s}.oauth_clients WHERE id = $1`, [id], toClient),
      async markApproved(id, approvedAt) {
        // Only the column that changes, and only once: concurrent first approvals can't clobber each other.
        await q.query(`UPDATE ${s}.oauth_clients SET approved_at = $2 WHERE id = $1 AND approved_at IS NULL`, [
          id,
          approvedAt,
        ]);
      },
    },
    oauthCodes: {
      async insert(c) {
        await q.query(
          `INSERT INTO ${s}.oauth_codes (code_hash, client_id, redirect_uri, code_challenge, resource, scopes, user_id, workspace_id, family_id, expires_at, created_at, used_at)
           VALUES (${placeholders(12)})`,
          [
            c.codeHash,
            c.clientId,
            c.redirectUri,
            c.codeChallenge,
            c.resource,
            json(c.scopes),
            c.userId,
            c.workspaceId,
            c.familyId,
            c.expiresAt,
            c.createdAt,
            c.usedAt,
          ],
        );
      },
      get: (codeHash) => one(q, `SELECT * FROM ${s}.oauth_codes WHERE code_hash = $1`, [codeHash], toCode),
      markUsed: (codeHash, usedAt) =>
        one(
          q,
          `UPDATE ${s}.oauth_codes SET used_at = $2 WHERE code_hash = $1 AND used_at IS NULL RETURNING *`,
          [codeHash, usedAt],
          toCode,
        ),
    },
    oauthTokens: {
      async insertFamily(f) {
        await q.query(
          `INSERT INTO ${s}.oauth_token_families (id, client_id, user_id, workspace_id, scopes, resource, created_at, expires_at, revoked_at) VALUES (${placeholders(9)})`,
          [
            f.id,
            f.clientId,
            f.userId,
            f.workspaceId,
            json(f.scopes),
            f.resource,
            f.createdAt,
            f.expiresAt,
            f.revokedAt,
          ],
        );
      },
      getFamily: (id) => one(q, `SELECT * FROM ${s}.oauth_token_families WHERE id = $1`, [id], toFamily),
      async revokeFamily(id, revokedAt) {
        const result = await q.query(
          `UPDATE ${s}.oauth_token_families SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1`,
          [id, revokedAt],
        );
        return affected(result) > 0;
      },
      async insertRefreshToken(t) {
        await q.query(
          `INSERT INTO ${s}.oauth_refresh_tokens (token_hash, family_id, scopes, expires_at, created_at, used_at) VALUES (${placeholders(6)})`,
          [t.tokenHash, t.familyId, json(t.scopes), t.expiresAt, t.createdAt, t.usedAt],
        );
      },
      getRefreshToken: (tokenHash) =>
        one(q, `SELECT * FROM ${s}.oauth_refresh_tokens WHERE token_hash = $1`, [tokenHash], toRefreshToken),
      markRefreshTokenUsed: (tokenHash, usedAt) =>
        one(
          q,
          `UPDATE ${s}.oauth_refresh_tokens SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL RETURNING *`,
          [tokenHash, usedAt],
          toRefreshToken,
        ),
      async purgeExpired(cutoffs) {
        // One statement, one snapshot. A grant's refresh tokens would go by ON DELETE CASCADE anyway;
        // deleting them in the `tokens` CTE too is what lets them be counted. `LIMIT NULL` is no
        // limit; SKIP LOCKED lets two workers purge at once without waiting on each other's rows.
        const pick = (table: string, key: string, where: string) =>
          `${key} IN (SELECT ${key} FROM ${s}.${table} WHERE ${where} LIMIT $3 FOR UPDATE SKIP LOCKED)`;
        const { rows } = await q.query(
          `WITH codes AS (DELETE FROM ${s}.oauth_codes WHERE ${pick("oauth_codes", "code_hash", "expires_at < $1")} RETURNING 1),
                grants AS (DELETE FROM ${s}.oauth_token_families
                           WHERE ${pick("oauth_token_families", "id", "revoked_at < $1 OR expires_at < $1")} RETURNING id),
                tokens AS (DELETE FROM ${s}.oauth_refresh_tokens
                           WHERE ${pick("oauth_refresh_tokens", "token_hash", "expires_at < $1")}
                              OR family_id IN (SELECT id FROM grants) RETURNING 1),
                clients AS (DELETE FROM ${s}.oauth_clients
                            WHERE ${pick("oauth_clients", "id", "approved_at IS NULL AND created_at < $2")} RETURNING 1)
           SELECT (SELECT count(*) FROM codes) AS codes, (SELECT count(*) FROM grants) AS grants,
                  (SELECT count(*) FROM tokens) AS refresh_tokens, (SELECT count(*) FROM clients) AS clients`,
          [cutoffs.now, cutoffs.unapprovedClientsCreatedBefore, cutoffs.limit ?? null],
        );
        const r = rows[0]!;
        return {
          codes: Number(r.codes),
          grants: Number(r.grants),
          refreshTokens: Number(r.refresh_tokens),
          clients: Number(r.clients),
        };
      },
    },
  };
}
