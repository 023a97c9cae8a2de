import type { ConnectorRecord, MemberRecord, MemberWithSessions, WorkspaceRecord } from "./records.js";

// Part of the Storage port (workspaces, their members and their connectors.); see storage.ts.

export interface WorkspaceRepository {
  insert(workspace: WorkspaceRecord): Promise<void>;
  get(id: string): Promise<WorkspaceRecord | null>;
  /** Inserts with a new session epoch, or changes only the role (the epoch stays). */
  upsertMember(member: MemberRecord): Promise<void>;
  getMember(workspaceId: string, userId: string): Promise<MemberWithSessions | null>;
  /**
   * Ends every console session of the member: replaces the session epoch with a new random one in
   * one write. False when the user is not a member.
   */
  endSessions(workspaceId: string, userId: string): Promise<boolean>;
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
