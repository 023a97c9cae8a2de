import type { WorkspaceRole } from "./records.js";

/** A workspace member as the admin API lists it: the role plus who was invited and when. */
export interface MemberDetails {
  workspaceId: string;
  userId: string;
  role: WorkspaceRole;
  /** The address the member was invited with; null for members added before invitations existed. */
  email: string | null;
  addedAt: string;
}

/**
 * Members and roles for the admin API. The owner rule ("never leave a workspace without an owner")
 * is a read-modify-write across rows, so callers take `lockWorkspace` first in a transaction:
 * PostgreSQL `SELECT … FOR UPDATE` on the workspace row serialises every role change and removal
 * of that workspace, and the owner count read after it cannot be undercut by a concurrent demotion.
 */
export interface MemberRepository {
  /** Oldest first (addedAt, then userId). */
  list(workspaceId: string): Promise<MemberDetails[]>;
  get(workspaceId: string, userId: string): Promise<MemberDetails | null>;
  /** Adds the member unless the user already belongs to the workspace; false then. */
  insert(member: MemberDetails): Promise<boolean>;
  /** Locks the workspace row until the transaction ends; false when the workspace does not exist. */
  lockWorkspace(workspaceId: string): Promise<boolean>;
  countOwners(workspaceId: string): Promise<number>;
  /** Sets only the role; returns the stored member, null when unknown. */
  setRole(workspaceId: string, userId: string, role: WorkspaceRole): Promise<MemberDetails | null>;
  /** False when the user was not a member. */
  remove(workspaceId: string, userId: string): Promise<boolean>;
}
