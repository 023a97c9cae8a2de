import type { StorageRepositories } from "@vitrina/core";
import type { ConnectorLeadSummary, MemberDetails } from "@vitrina/core/storage";
import { affected, type Queryable } from "../driver.js";
import { iso, many, one } from "../rows.js";
import { toConnector } from "./workspaces.js";

export const toLeadSummary = (r: any): ConnectorLeadSummary => ({
  id: r.id,
  receivedAt: iso(r.received_at),
  sourceLeadId: r.source_lead_id,
  duplicate: Boolean(r.duplicate),
  outboundStatus: r.outbound_status ?? null,
  outboundReason: r.outbound_reason ?? null,
  rejectedQualification: r.qualification_rejected,
});

const toMember = (r: any): MemberDetails => ({
  workspaceId: r.workspace_id,
  userId: r.user_id,
  role: r.role,
  email: r.email ?? null,
  addedAt: iso(r.added_at),
});

/** Members, the connector listing and API key usage for the admin API. */
export function adminRepositories(
  q: Queryable,
  s: string,
): Pick<StorageRepositories, "members" | "connectorPages" | "apiKeyUsage" | "connectorLeads"> {
  return {
    members: {
      list: (workspaceId) =>
        many(
          q,
          `SELECT * FROM ${s}.workspace_members WHERE workspace_id = $1 ORDER BY added_at, user_id`,
          [workspaceId],
          toMember,
        ),
      get: (workspaceId, userId) =>
        one(
          q,
          `SELECT * FROM ${s}.workspace_members WHERE workspace_id = $1 AND user_id = $2`,
          [workspaceId, userId],
          toMember,
        ),
      async insert(m) {
        const result = await q.query(
          `INSERT INTO ${s}.workspace_members (workspace_id, user_id, role, email, added_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (workspace_id, user_id) DO NOTHING`,
          [m.workspaceId, m.userId, m.role, m.email, m.addedAt],
        );
        return affected(result) > 0;
      },
      async lockWorkspace(workspaceId) {
        // The one row every role change and removal of this workspace queues on (READ COMMITTED).
        const { rows } = await q.query(`SELECT id FROM ${s}.workspaces WHERE id = $1 FOR UPDATE`, [workspaceId]);
        return rows.length > 0;
      },
      async countOwners(workspaceId) {
        const { rows } = await q.query(
          `SELECT count(*)::int AS n FROM ${s}.workspace_members WHERE workspace_id = $1 AND role = 'owner'`,
          [workspaceId],
        );
        return Number((rows[0] as { n: number }).n);
      },
      setRole: (workspaceId, userId, role) =>
        one(
          q,
          `UPDATE ${s}.workspace_members SET role = $3 WHERE workspace_id = $1 AND user_id = $2 RETURNING *`,
          [workspaceId, userId, role],
          toMember,
        ),
      async remove(workspaceId, userId) {
        const result = await q.query(`DELETE FROM ${s}.workspace_members WHERE workspace_id = $1 AND user_id = $2`, [
          workspaceId,
          userId,
        ]);
        return affected(result) > 0;
      },
    },
    connectorPages: {
      // Keyset pagination on (created_at, id): stable under inserts, no OFFSET scan.
      listPage: (workspaceId, page) =>
        many(
          q,
          page.startingAfter === undefined
            ? `SELECT * FROM ${s}.connectors WHERE workspace_id = $1 ORDER BY created_at, id LIMIT $2`
            : `SELECT c.* FROM ${s}.connectors c, ${s}.connectors cursor
               WHERE c.workspace_id = $1 AND cursor.id = $3 AND cursor.workspace_id = $1
                 AND (c.created_at, c.id) > (cursor.created_at, cursor.id)
               ORDER BY c.created_at, c.id LIMIT $2`,
          page.startingAfter === undefined ? [workspaceId, page.limit] : [workspaceId, page.limit, page.startingAfter],
          toConnector,
        ),
    },
    apiKeyUsage: {
      async touch(keyId, now, minIntervalMs) {
        // One conditional statement: at most one write per key per interval, however many requests.
        const result = await q.query(
          `UPDATE ${s}.api_keys SET last_used_at = $2
           WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - make_interval(secs => $3::double precision / 1000))`,
          [keyId, now, minIntervalMs],
        );
        return affected(result) > 0;
      },
      async lastUsed(keyIds) {
        if (keyIds.length === 0) return new Map();
        const { rows } = await q.query(
          `SELECT id, last_used_at FROM ${s}.api_keys WHERE id = ANY($1::text[]) AND last_used_at IS NOT NULL`,
          [keyIds],
        );
        return new Map(rows.map((r: any) => [r.id as string, iso(r.last_used_at)]));
      },
    },
    connectorLeads: {
      // Newest first by keyset on (received_at, id); `duplicate` asks the contact index whether an
      // earlier lead of the workspace brought the same person.
      listByConnector(connectorId, page) {
        const cursor =
          page.startingAfter === undefined
            ? ""
            : `AND (l.received_at, l.id) < (SELECT c.received_at, c.id FROM ${s}.lead_events c WHERE c.id = $3 AND c.connector_id = $1)`;
        return many(
          q,
          `SELECT l.id, l.received_at, l.source_lead_id, l.qualification_rejected,
                  o.status AS outbound_status, o.reason AS outbound_reason,
                  EXISTS (SELECT 1 FROM ${s}.lead_events p WHERE p.contact_id = l.contact_id
                          AND p.workspace_id = l.workspace_id AND (p.received_at, p.id) < (l.received_at, l.id)) AS duplicate
           FROM ${s}.lead_events l LEFT JOIN ${s}.outbound_messages o ON o.lead_event_id = l.id
           WHERE l.connector_id = $1 ${cursor}
           ORDER BY l.received_at DESC, l.id DESC LIMIT $2`,
          page.startingAfter === undefined ? [connectorId, page.limit] : [connectorId, page.limit, page.startingAfter],
          toLeadSummary,
        );
      },
    },
  };
}
