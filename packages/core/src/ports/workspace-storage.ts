import type { ConnectorRecord, MemberRecord, WorkspaceRecord } from "./records.js";

// Part of the Storage port (workspaces, their members and their connectors.); see storage.ts.

export interface WorkspaceRepository {
  insert(workspace: WorkspaceRecord): Promise<void>;
  get(id: string): Promise<WorkspaceRecord | null>;
  upsertMember(member: MemberRecord): Promise<void>;
  getMember(workspaceId: string, userId: string): Promise<MemberRecord | null>;
  /** The workspaces `userId` is a member of, with that member's role, oldest first (console listing). */
  listForUser(userId: string): Promise<Array<WorkspaceRecord & { role: MemberRecord["role"] }>>;
}

export interface ConnectorRepository {
  /** Fails with `conflict` when (workspaceId, systemId) is taken. */
  insert(connector: ConnectorRecord): Promise<void>;
  get(id: string): Promise<ConnectorRecord | null>;
  /** The connector and its workspace in one read (lead intake's hot path), or null when it does not exist. */
  getWithWorkspace(id: string): Promise<{ connector: ConnectorRecord; workspace: WorkspaceRecord } | null>;
  listByWorkspace(workspaceId: string): Promise<ConnectorRecord[]>;
  /** Replaces the sealed secret and bumps `secretVersion`; returns the updated record. */
  updateSecret(id: string, sealedSecret: string, rotatedAt: string): Promise<ConnectorRecord | null>;
}
