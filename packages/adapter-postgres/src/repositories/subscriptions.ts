import type { StorageRepositories } from "@vitrina/core";
import type { ApiKeyRecord, WebhookSubscriptionRecord } from "@vitrina/core/storage";
import { affected, type Queryable } from "../driver.js";
import { iso, isoOrNull, json, many, one, placeholders } from "../rows.js";

const toApiKey = (r: any): ApiKeyRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  name: r.name,
  visiblePrefix: r.visible_prefix,
  hash: r.hash,
  scopes: r.scopes,
  createdBy: r.created_by,
  createdAt: iso(r.created_at),
  revokedAt: isoOrNull(r.revoked_at),
});

export const toSubscription = (r: any): WebhookSubscriptionRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  url: r.url,
  events: r.events,
  sealedSecret: r.sealed_secret,
  signatureScheme: r.signature_scheme,
  previousSealedSecret: r.previous_sealed_secret,
  previousSecretExpiresAt: isoOrNull(r.previous_secret_expires_at),
  enabled: r.enabled,
  disabledReason: r.disabled_reason,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
  failingSince: isoOrNull(r.failing_since ?? null),
  lastAttemptAt: isoOrNull(r.last_attempt_at ?? null),
  lastAttemptStatusCode: r.last_attempt_status_code ?? null,
  lastAttemptError: r.last_attempt_error ?? null,
});

const subscriptionValues = (x: WebhookSubscriptionRecord) => [
  x.id,
  x.workspaceId,
  x.url,
  json(x.events),
  x.sealedSecret,
  x.enabled,
  x.disabledReason,
  x.createdAt,
  x.updatedAt,
  x.signatureScheme,
  x.previousSealedSecret,
  x.previousSecretExpiresAt,
];

/** API keys (unique hash) and webhook subscriptions. */
export function subscriptionRepositories(
  q: Queryable,
  s: string,
): Pick<StorageRepositories, "apiKeys" | "webhookSubscriptions"> {
  return {
    apiKeys: {
      async insert(k) {
        await q.query(
          `INSERT INTO ${s}.api_keys (id, workspace_id, name, visible_prefix, hash, scopes, created_by, created_at, revoked_at) VALUES (${placeholders(9)})`,
          [k.id, k.workspaceId, k.name, k.visiblePrefix, k.hash, json(k.scopes), k.createdBy, k.createdAt, k.revokedAt],
        );
      },
      findByHash: (hash) => one(q, `SELECT * FROM ${s}.api_keys WHERE hash = $1`, [hash], toApiKey),
      get: (workspaceId, id) =>
        one(q, `SELECT * FROM ${s}.api_keys WHERE workspace_id = $1 AND id = $2`, [workspaceId, id], toApiKey),
      listByWorkspace: (workspaceId) =>
        many(q, `SELECT * FROM ${s}.api_keys WHERE workspace_id = $1 ORDER BY created_at, id`, [workspaceId], toApiKey),
      async revoke(workspaceId, id, revokedAt) {
        // COALESCE keeps the first revocation time; RETURNING reads the row back either way.
        return one(
          q,
          `UPDATE ${s}.api_keys SET revoked_at = COALESCE(revoked_at, $3) WHERE workspace_id = $1 AND id = $2 RETURNING *`,
          [workspaceId, id, revokedAt],
          toApiKey,
        );
      },
    },
    webhookSubscriptions: {
      async insert(sub) {
        await q.query(
          `INSERT INTO ${s}.webhook_subscriptions (id, workspace_id, url, events, sealed_secret, enabled, disabled_reason, created_at, updated_at,
             signature_scheme, previous_sealed_secret, previous_secret_expires_at)
           VALUES (${placeholders(12)})`,
          subscriptionValues(sub),
        );
      },
      get: (workspaceId, id) =>
        one(
          q,
          `SELECT * FROM ${s}.webhook_subscriptions WHERE workspace_id = $1 AND id = $2`,
          [workspaceId, id],
          toSubscription,
        ),
      listByWorkspace: (workspaceId) =>
        many(
          q,
          `SELECT * FROM ${s}.webhook_subscriptions WHERE workspace_id = $1 ORDER BY created_at, id`,
          [workspaceId],
          toSubscription,
        ),
      listEnabledForEvent: (workspaceId, eventType) =>
        many(
          q,
          `SELECT * FROM ${s}.webhook_subscriptions WHERE workspace_id = $1 AND enabled AND events ? $2 ORDER BY created_at, id`,
          [workspaceId, eventType],
          toSubscription,
        ),
      patch: (workspaceId, id, c) =>
        // Each column keeps its stored value unless the patch names it (COALESCE on a NULL
        // parameter); disabled_reason may be set to NULL, so it has its own "given" flag. The
        // conditions sit in the WHERE of this one UPDATE: under READ COMMITTED a concurrent URL
        // change is re-checked on the row it committed, so a 410's disable can't land on a new URL.
        // A rolling rotation reads the secret it replaces from the row being updated (the right-hand
        // sides see the row before this SET), so a concurrent rotation is never written back stale.
        // A re-enable clears failing_since (judged on that same row: only a disabled one resets), and
        // an auto-disable's onlyIfFailingSince is re-checked on the newest row like the others.
        one(
          q,
          `UPDATE ${s}.webhook_subscriptions SET url = COALESCE($3, url), events = COALESCE($4::jsonb, events),
             previous_sealed_secret = CASE WHEN $5::text IS NULL THEN previous_sealed_secret
               WHEN $12::timestamptz IS NULL THEN NULL ELSE sealed_secret END,
             previous_secret_expires_at = CASE WHEN $5::text IS NULL THEN previous_secret_expires_at ELSE $12::timestamptz END,
             sealed_secret = COALESCE($5, sealed_secret), enabled = COALESCE($6, enabled),
             disabled_reason = CASE WHEN $7::boolean THEN $8 ELSE disabled_reason END, updated_at = $9,
             failing_since = CASE WHEN $6::boolean AND NOT enabled THEN NULL ELSE failing_since END
           WHERE workspace_id = $1 AND id = $2 AND (NOT $10::boolean OR enabled) AND ($11::text IS NULL OR url = $11)
             AND ($13::timestamptz IS NULL OR failing_since <= $13::timestamptz)
           RETURNING *`,
          [
            workspaceId,
            id,
            c.url ?? null,
            c.events === undefined ? null : json(c.events),
            c.sealedSecret ?? null,
            c.enabled ?? null,
            c.disabledReason !== undefined,
            c.disabledReason ?? null,
            c.updatedAt,
            c.onlyIfEnabled === true,
            c.onlyIfUrl ?? null,
            c.sealedSecret === undefined ? null : (c.previousSecretExpiresAt ?? null),
            c.onlyIfFailingSince ?? null,
          ],
          toSubscription,
        ),
      async delete(workspaceId, id) {
        return (
          affected(
            await q.query(`DELETE FROM ${s}.webhook_subscriptions WHERE workspace_id = $1 AND id = $2`, [
              workspaceId,
              id,
            ]),
          ) > 0
        );
      },
    },
  };
}
