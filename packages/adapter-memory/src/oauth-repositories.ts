import { ConflictError, type StorageRepositories } from "@vitrina/core";
import { type OAuthPurgeCounts, type OAuthPurgeCutoffs } from "@vitrina/core/storage";
import type { MemoryState } from "./state.js";
import type { MemoryTable, UndoLog } from "./table.js";

type OAuthRepositories = Pick<StorageRepositories, "oauthClients" | "oauthCodes" | "oauthTokens">;

/** Inserts or fails with `conflict`, as the primary keys of the PostgreSQL schema do. */
function insertUnique<Row>(table: MemoryTable<Row>, row: Row, undo: UndoLog, what: string): void {
  if (table.conflictOf(row) !== null) throw new ConflictError(`${what} already exists`);
  table.insert(row, undo);
}

/** Sets `usedAt` on an unused row and returns it; null when missing or already used. */
function markUsed<Row extends { usedAt: string | null }>(
  table: MemoryTable<Row>,
  key: string,
  usedAt: string,
  undo: UndoLog,
): Row | null {
  const row = table.get(key);
  if (row === null || row.usedAt !== null) return null;
  const used = { ...row, usedAt };
  table.replace(used, undo);
  return used;
}

/** Deletes the rows `doomed` picks, at most `limit` of them (all without one); returns how many. */
function deleteWhere<Row>(
  table: MemoryTable<Row>,
  keyOf: (row: Row) => string,
  doomed: (row: Row) => boolean,
  undo: UndoLog,
  limit = Infinity,
): number {
  const rows = table.filter(doomed).slice(0, limit);
  for (const row of rows) table.delete(keyOf(row), undo);
  return rows.length;
}

/** ISO 8601 UTC strings of one format compare in time order. */
const before = (iso: string | null, cutoff: string) => iso !== null && Date.parse(iso) < Date.parse(cutoff);

function purgeExpired(state: MemoryState, cutoffs: OAuthPurgeCutoffs, undo: UndoLog): OAuthPurgeCounts {
  const limit = cutoffs.limit ?? Infinity;
  const codes = deleteWhere(
    state.oauthCodes,
    (c) => c.codeHash,
    (c) => before(c.expiresAt, cutoffs.now),
    undo,
    limit,
  );
  const endedGrants = new Set(
    state.oauthFamilies
      .filter((f) => before(f.revokedAt, cutoffs.now) || before(f.expiresAt, cutoffs.now))
      .slice(0, limit)
      .map((f) => f.id),
  );
  // The foreign key's ON DELETE CASCADE in PostgreSQL: a grant's refresh tokens go with it, beyond the limit.
  const expiredTokens = new Set(
    state.oauthRefreshTokens
      .filter((t) => before(t.expiresAt, cutoffs.now))
      .slice(0, limit)
      .map((t) => t.tokenHash),
  );
  const refreshTokens = deleteWhere(
    state.oauthRefreshTokens,
    (t) => t.tokenHash,
    (t) => endedGrants.has(t.familyId) || expiredTokens.has(t.tokenHash),
    undo,
  );
  const grants = deleteWhere(
    state.oauthFamilies,
    (f) => f.id,
    (f) => endedGrants.has(f.id),
    undo,
  );
  const clients = deleteWhere(
    state.oauthClients,
    (c) => c.id,
    (c) => c.approvedAt === null && before(c.createdAt, cutoffs.unapprovedClientsCreatedBefore),
    undo,
    limit,
  );
  return { codes, grants, refreshTokens, clients };
}

/** The OAuth 2.1 repositories over one memory state (see `createMemoryRepositories`). */
export function createMemoryOAuthRepositories(state: MemoryState, undo: UndoLog): OAuthRepositories {
  return {
    oauthClients: {
      async insert(client) {
        insertUnique(state.oauthClients, client, undo, `OAuth client ${client.id}`);
      },
      async get(id) {
        return state.oauthClients.get(id);
      },
      async markApproved(id, approvedAt) {
        const client = state.oauthClients.get(id);
        if (client !== null && client.approvedAt === null) state.oauthClients.replace({ ...client, approvedAt }, undo);
      },
    },
    oauthCodes: {
      async insert(code) {
        insertUnique(state.oauthCodes, code, undo, "authorization code");
      },
      async get(codeHash) {
        return state.oauthCodes.get(codeHash);
      },
      async markUsed(codeHash, usedAt) {
        return markUsed(state.oauthCodes, codeHash, usedAt, undo);
      },
    },
    oauthTokens: {
      async insertFamily(family) {
        insertUnique(state.oauthFamilies, family, undo, `token family ${family.id}`);
      },
      async getFamily(id) {
        return state.oauthFamilies.get(id);
      },
      async revokeFamily(id, revokedAt) {
        const family = state.oauthFamilies.get(id);
        if (family === null) return false;
        if (family.revokedAt === null) state.oauthFamilies.replace({ ...family, revokedAt }, undo);
        return true;
      },
      async insertRefreshToken(token) {
        insertUnique(state.oauthRefreshTokens, token, undo, "refresh token");
      },
      async getRefreshToken(tokenHash) {
        return state.oauthRefreshTokens.get(tokenHash);
      },
      async markRefreshTokenUsed(tokenHash, usedAt) {
        return markUsed(state.oauthRefreshTokens, tokenHash, usedAt, undo);
      },
      async purgeExpired(cutoffs) {
        return purgeExpired(state, cutoffs, undo);
      },
    },
  };
}
