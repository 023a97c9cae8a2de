import { ConflictError, type ContactRecord, type StorageRepositories } from "@vitrina/core";
import type { ContactPatch } from "@vitrina/core/storage";
import { affected, type Queryable } from "../driver.js";
import { iso, isoOrNull, json, many, numOrNull, one, placeholders } from "../rows.js";

export const toContact = (r: any): ContactRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  name: r.name,
  phoneE164: r.phone_e164,
  email: r.email,
  tags: r.tags,
  score: numOrNull(r.score),
  ltv: numOrNull(r.ltv),
  whatsappConsent: r.whatsapp_consent,
  whatsappOptedOutAt: isoOrNull(r.whatsapp_opted_out_at),
  ...(r.possible_duplicate_of !== null && { possibleDuplicateOf: r.possible_duplicate_of }),
  ...(r.whatsapp_user_id != null && { whatsappUserId: r.whatsapp_user_id }),
  ...(r.whatsapp_last_inbound_at != null && { whatsappLastInboundAt: iso(r.whatsapp_last_inbound_at) }),
  ...(r.whatsapp_resumed_at != null && { whatsappResumedAt: iso(r.whatsapp_resumed_at) }),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

export const contactValues = (c: ContactRecord) => [
  c.id,
  c.workspaceId,
  c.name,
  c.phoneE164,
  c.email,
  json(c.tags),
  c.score,
  c.ltv,
  c.whatsappConsent === null ? null : json(c.whatsappConsent),
  c.whatsappOptedOutAt,
  c.createdAt,
  c.updatedAt,
  c.possibleDuplicateOf ?? null,
];

export const CONTACT_COLUMNS = `id, workspace_id, name, phone_e164, email, tags, score, ltv, whatsapp_consent,
  whatsapp_opted_out_at, created_at, updated_at, possible_duplicate_of`;

/**
 * The id of the workspace's oldest contact with the email in `$email` (case-insensitive), or null:
 * a new contact's `possible_duplicate_of`. `$workspace` and `$email` are parameter numbers.
 */
export const oldestWithEmail = (s: string, workspace: number, email: number) =>
  `(SELECT id FROM ${s}.contacts WHERE $${email}::text IS NOT NULL AND workspace_id = $${workspace} AND lower(email) = lower($${email})
    ORDER BY created_at, id LIMIT 1)`;

/** `patch`'s keys, as columns, with how each value is bound. */
const patchColumns = {
  name: ["name", (v: unknown) => v],
  phoneE164: ["phone_e164", (v: unknown) => v],
  email: ["email", (v: unknown) => v],
  tags: ["tags", (v: unknown) => json(v)],
  whatsappConsent: ["whatsapp_consent", (v: unknown) => (v === null ? null : json(v))],
} as const satisfies Record<keyof ContactPatch, readonly [string, (v: unknown) => unknown]>;

export function contactRepositories(q: Queryable, s: string): Pick<StorageRepositories, "contacts"> {
  return {
    contacts: {
      async insertOrGetByPhone(contact) {
        // ON CONFLICT waits for a concurrent insert of the same phone to commit, then yields to it.
        const inserted = await q.query(
          `INSERT INTO ${s}.contacts (${CONTACT_COLUMNS})
           VALUES (${placeholders(13)}) ON CONFLICT ON CONSTRAINT contacts_phone_key DO NOTHING RETURNING *`,
          contactValues(contact),
        );
        if (inserted.rows.length > 0) return { contact: toContact(inserted.rows[0]), created: true };
        const existing = await one(
          q,
          `SELECT * FROM ${s}.contacts WHERE workspace_id = $1 AND phone_e164 = $2`,
          [contact.workspaceId, contact.phoneE164],
          toContact,
        );
        return { contact: existing!, created: false };
      },
      async resolveForLead(candidate) {
        // One statement instead of find-by-phone, find-by-email, insert and lock. ON CONFLICT … DO
        // UPDATE locks the existing row (as FOR UPDATE would) and, when a concurrent transaction
        // is inserting the same phone, waits for it to commit and then updates its row. The email
        // look-up only matters for a new contact; `possible_duplicate_of` is never updated.
        // `updated_at` moves only when a column changes (consent evidence always does).
        const { rows } = await q.query(
          `INSERT INTO ${s}.contacts AS c (${CONTACT_COLUMNS})
           VALUES (${placeholders(12)}, ${oldestWithEmail(s, 2, 5)})
           ON CONFLICT ON CONSTRAINT contacts_phone_key DO UPDATE SET
             name = coalesce(c.name, EXCLUDED.name),
             email = coalesce(c.email, EXCLUDED.email),
             whatsapp_consent = coalesce(EXCLUDED.whatsapp_consent, c.whatsapp_consent),
             updated_at = CASE
               WHEN EXCLUDED.whatsapp_consent IS NOT NULL
                 OR (c.name IS NULL AND EXCLUDED.name IS NOT NULL)
                 OR (c.email IS NULL AND EXCLUDED.email IS NOT NULL)
               THEN EXCLUDED.updated_at ELSE c.updated_at END
           RETURNING *, (xmax = 0) AS created`,
          contactValues(candidate).slice(0, 12),
        );
        return { contact: toContact(rows[0]), created: rows[0].created === true };
      },
      get: (workspaceId, id) =>
        one(q, `SELECT * FROM ${s}.contacts WHERE workspace_id = $1 AND id = $2`, [workspaceId, id], toContact),
      findByPhone: (workspaceId, phone) =>
        one(
          q,
          `SELECT * FROM ${s}.contacts WHERE workspace_id = $1 AND phone_e164 = $2`,
          [workspaceId, phone],
          toContact,
        ),
      findByEmail: (workspaceId, email) =>
        one(
          q,
          `SELECT * FROM ${s}.contacts WHERE workspace_id = $1 AND lower(email) = lower($2) ORDER BY created_at, id LIMIT 1`,
          [workspaceId, email],
          toContact,
        ),
      async update(c) {
        const result = await q.query(
          `UPDATE ${s}.contacts SET workspace_id = $2, name = $3, phone_e164 = $4, email = $5, tags = $6, score = $7, ltv = $8,
             whatsapp_consent = $9, whatsapp_opted_out_at = $10, created_at = $11, updated_at = $12, possible_duplicate_of = $13 WHERE id = $1`,
          contactValues(c),
        );
        return affected(result) > 0;
      },
      getForUpdate: (workspaceId, id) =>
        one(
          q,
          `SELECT * FROM ${s}.contacts WHERE workspace_id = $1 AND id = $2 FOR UPDATE`,
          [workspaceId, id],
          toContact,
        ),
      patch(workspaceId, id, changes, updatedAt) {
        // Only the columns named in `changes`: a column this call does not mean to change is never
        // written, so a concurrent opt-out (or any other targeted write) survives it.
        const params: unknown[] = [workspaceId, id, updatedAt];
        const sets = ["updated_at = $3"];
        for (const [key, [column, bind]] of Object.entries(patchColumns)) {
          if (!(key in changes)) continue;
          params.push(bind(changes[key as keyof ContactPatch]));
          sets.push(`${column} = $${params.length}`);
        }
        return one(
          q,
          `UPDATE ${s}.contacts SET ${sets.join(", ")} WHERE workspace_id = $1 AND id = $2 RETURNING *`,
          params,
          toContact,
        );
      },
      fillMissing: (workspaceId, id, fields, updatedAt) =>
        one(
          q,
          `UPDATE ${s}.contacts SET name = coalesce(name, $3), email = coalesce(email, $4), updated_at = $5
           WHERE workspace_id = $1 AND id = $2 RETURNING *`,
          [workspaceId, id, fields.name, fields.email, updatedAt],
          toContact,
        ),
      // The CASE is evaluated on the row's latest version (the UPDATE waits for a concurrent writer,
      // then re-reads it): the first opt-out wins, and a resume newer than `at` keeps it from applying.
      optOutOfWhatsApp: (workspaceId, id, at) =>
        one(
          q,
          `UPDATE ${s}.contacts SET
             whatsapp_opted_out_at = CASE WHEN whatsapp_opted_out_at IS NULL
               AND (whatsapp_resumed_at IS NULL OR whatsapp_resumed_at < $3::timestamptz) THEN $3::timestamptz ELSE whatsapp_opted_out_at END,
             updated_at = CASE WHEN whatsapp_opted_out_at IS NULL
               AND (whatsapp_resumed_at IS NULL OR whatsapp_resumed_at < $3::timestamptz) THEN $3::timestamptz ELSE updated_at END
           WHERE workspace_id = $1 AND id = $2 RETURNING *`,
          [workspaceId, id, at],
          toContact,
        ),
      resumeWhatsApp: (workspaceId, id, at) =>
        one(
          q,
          `UPDATE ${s}.contacts SET
             whatsapp_opted_out_at = CASE WHEN whatsapp_opted_out_at <= $3::timestamptz THEN NULL ELSE whatsapp_opted_out_at END,
             whatsapp_resumed_at = greatest(whatsapp_resumed_at, $3::timestamptz),
             updated_at = $3::timestamptz
           WHERE workspace_id = $1 AND id = $2 RETURNING *`,
          [workspaceId, id, at],
          toContact,
        ),
      recordInbound: (workspaceId, id, at) =>
        one(
          q,
          `UPDATE ${s}.contacts SET whatsapp_last_inbound_at = greatest(whatsapp_last_inbound_at, $3::timestamptz)
           WHERE workspace_id = $1 AND id = $2 RETURNING *`,
          [workspaceId, id, at],
          toContact,
        ),
      findByWhatsAppUserId: (workspaceId, userId) =>
        one(
          q,
          `SELECT * FROM ${s}.contacts WHERE workspace_id = $1 AND whatsapp_user_id = $2`,
          [workspaceId, userId],
          toContact,
        ),
      async resolveForInbound(candidate) {
        const userId = candidate.whatsappUserId ?? null;
        // Find (locked) by user id, then by phone, else insert. An insert that meets a concurrent
        // one for the same person (either unique key) waits for it to commit and inserts nothing;
        // the next round then finds and locks that row.
        for (let round = 0; round < 3; round++) {
          const byUser =
            userId === null
              ? null
              : await one(
                  q,
                  `SELECT * FROM ${s}.contacts WHERE workspace_id = $1 AND whatsapp_user_id = $2 FOR UPDATE`,
                  [candidate.workspaceId, userId],
                  toContact,
                );
          if (byUser !== null) return { contact: byUser, created: false };
          if (candidate.phoneE164 !== null) {
            const byPhone = await one(
              q,
              `UPDATE ${s}.contacts SET whatsapp_user_id = coalesce(whatsapp_user_id, $3)
               WHERE workspace_id = $1 AND phone_e164 = $2 RETURNING *`,
              [candidate.workspaceId, candidate.phoneE164, userId],
              toContact,
            );
            if (byPhone !== null) return { contact: byPhone, created: false };
          }
          const inserted = await one(
            q,
            `INSERT INTO ${s}.contacts (${CONTACT_COLUMNS}, whatsapp_user_id)
             VALUES (${placeholders(14)}) ON CONFLICT DO NOTHING RETURNING *`,
            [...contactValues(candidate), userId],
            toContact,
          );
          if (inserted !== null) return { contact: inserted, created: true };
        }
        throw new ConflictError("the sender's contact changed concurrently three times; the provider will redeliver");
      },
      search(workspaceId, query, { limit }) {
        const text = query.trim();
        const digits = text.replace(/[\s\-()]/g, "");
        // strpos, not LIKE: the query is matched literally, `%` and `_` included.
        return many(
          q,
          `SELECT * FROM ${s}.contacts WHERE workspace_id = $1 AND (strpos(lower(name), lower($2)) > 0 OR strpos(lower(email), lower($2)) > 0
             OR ($3 <> '' AND strpos(phone_e164, $3) > 0)) ORDER BY created_at, id LIMIT $4`,
          [workspaceId, text, /\d/.test(digits) ? digits : "", limit],
          toContact,
        );
      },
    },
  };
}
