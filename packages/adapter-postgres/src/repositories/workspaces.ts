import { ConflictError, type ConnectorRecord, type StorageRepositories, type WorkspaceRecord } from "@vitrina/core";
import { affected, type Queryable } from "../driver.js";
import { iso, isoOrNull, many, one, placeholders } from "../rows.js";

const toWorkspace = (r: any): WorkspaceRecord => ({
  id: r.id,
  name: r.name,
  vertical: r.vertical,
  currency: r.currency,
  createdAt: iso(r.created_at),
});

export const toConnector = (r: any): ConnectorRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  name: r.name,
  systemId: r.system_id,
  sealedSecret: r.sealed_secret,
  secretVersion: Number(r.secret_version),
  createdAt: iso(r.created_at),
  rotatedAt: isoOrNull(r.rotated_at),
});

export function workspaceRepositories(q: Queryable, s: string): Pick<StorageRepositories, "workspaces" | "connectors"> {
  return {
    workspaces: {
      async insert(w) {
        await q.query(
          `INSERT INTO ${s}.workspaces (id, name, vertical, currency, created_at) VALUES (${placeholders(5)})`,
          [w.id, w.name, w.vertical, w.currency, w.createdAt],
        );
      },
      get: (id) => one(q, `SELECT * FROM ${s}.workspaces WHERE id = $1`, [id], toWorkspace),
      async upsertMember(m) {
        await q.query(
          `INSERT INTO ${s}.workspace_members (workspace_id, user_id, role) VALUES ($1, $2, $3)
           ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
          [m.workspaceId, m.userId, m.role],
        );
      },
      getMember: (workspaceId, userId) =>
        one(
          q,
          `SELECT * FROM ${s}.workspace_members WHERE workspace_id = $1 AND user_id = $2`,
          [workspaceId, userId],
          (r) => ({
            workspaceId: r.workspace_id,
            userId: r.user_id,
            role: r.role,
            sessionEpoch: r.session_epoch,
          }),
        ),
      async endSessions(workspaceId, userId) {
        const result = await q.query(
          `UPDATE ${s}.workspace_members SET session_epoch = gen_random_uuid()::text
           WHERE workspace_id = $1 AND user_id = $2`,
          [workspaceId, userId],
        );
        return affected(result) > 0;
      },
      // A scan of the members table by user: a console command, not a request path.
      listForUser: (userId) =>
        many(
          q,
          `SELECT w.*, m.role FROM ${s}.workspaces w JOIN ${s}.workspace_members m ON m.workspace_id = w.id
           WHERE m.user_id = $1 ORDER BY w.created_at, w.id`,
          [userId],
          (r) => ({ ...toWorkspace(r), role: r.role }),
        ),
    },
    connectors: {
      async insert(c) {
        const { rows } = await q.query(
          `INSERT INTO ${s}.connectors (id, workspace_id, name, system_id, sealed_secret, secret_version, created_at, rotated_at)
           VALUES (${placeholders(8)}) ON CONFLICT ON CONSTRAINT connectors_system_id_key DO NOTHING RETURNING id`,
          [c.id, c.workspaceId, c.name, c.systemId, c.sealedSecret, c.secretVersion, c.createdAt, c.rotatedAt],
        );
        if (rows.length === 0) {
          throw new ConflictError(
            `a connector with system identifier "${c.systemId}" already exists in this workspace`,
          );
        }
      },
      get: (id) => one(q, `SELECT * FROM ${s}.connectors WHERE id = $1`, [id], toConnector),
      getWithWorkspace: (id) =>
        one(
          q,
          `SELECT c.*, w.name AS workspace_name, w.vertical AS workspace_vertical, w.currency AS workspace_currency,
             w.created_at AS workspace_created_at
           FROM ${s}.connectors c JOIN ${s}.workspaces w ON w.id = c.workspace_id WHERE c.id = $1`,
          [id],
          (r) => ({
            connector: toConnector(r),
            workspace: toWorkspace({
              id: r.workspace_id,
              name: r.workspace_name,
              vertical: r.workspace_vertical,
              currency: r.workspace_currency,
              created_at: r.workspace_created_at,
            }),
          }),
        ),
      listByWorkspace: (workspaceId) =>
        many(
          q,
          `SELECT * FROM ${s}.connectors WHERE workspace_id = $1 ORDER BY created_at, id`,
          [workspaceId],
          toConnector,
        ),
      async updateSecret(id, sealedSecret, rotatedAt) {
        const result = await q.query(
          `UPDATE ${s}.connectors SET sealed_secret = $2, rotated_at = $3, secret_version = secret_version + 1 WHERE id = $1 RETURNING *`,
          [id, sealedSecret, rotatedAt],
        );
        return affected(result) === 0 || result.rows.length === 0 ? null : toConnector(result.rows[0]);
      },
    },
  };
}
