import { VitrinaError, type StorageRepositories } from "@vitrina/core";
import type { MemoryState } from "./state.js";
import type { MemoryTable, UndoLog } from "./table.js";

type OAuthRepositories = Pick<StorageRepositories, "oauthClients" | "oauthCodes" | "oauthTokens">;

/** Inserts or fails with `conflict`, as the primary keys of the PostgreSQL schema do. */
function insertUnique<Row>(table: MemoryTable<Row>, row: Row, undo: UndoLog, what: string): void {
  if (table.conflictOf(row) !== null) throw new VitrinaError("conflict", `${what} already exists`);
  table.insert(row, undo);
}

/** Sets `usedAt` on an unused row and returns it; null when missing or already used. */
function markUsed<Row extends { usedAt: string | null }>(table: MemoryTable<Row>, key: string, usedAt: string, undo: UndoLog): Row | null {
  const row = table.get(key);
  if (row === null || row.usedAt !== null) return null;
  const used = { ...row, usedAt };
  table.replace(used, undo);
  return used;
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
    },
  };
}
