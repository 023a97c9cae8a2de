import { ConflictError, ForbiddenError, NotFoundError } from "../errors.js";
import type { WorkspaceRole } from "../ports/records.js";
import type { Storage, StorageTransaction } from "../ports/storage.js";

/**
 * Runs `change` in a transaction that first locks the workspace row, so every role change and
 * removal of one workspace queues behind the others: the owner count `assertOwnerRules` reads
 * can't be undercut by a concurrent demotion.
 */
export function withWorkspaceLocked<T>(
  storage: Storage,
  workspaceId: string,
  change: (tx: StorageTransaction) => Promise<T>,
): Promise<T> {
  return storage.transaction(async (tx) => {
    if (!(await tx.members.lockWorkspace(workspaceId)))
      throw new NotFoundError(`workspace ${workspaceId} does not exist`);
    return change(tx);
  });
}

/**
 * The owner rules, for every door that changes a role (the admin API, the console and
 * `workspaces.setMember`): only an owner may make, demote or remove an owner, and a workspace never
 * loses its last owner. Call it inside `withWorkspaceLocked`, with the actor's role read there.
 */
export async function assertOwnerRules(
  tx: StorageTransaction,
  change: {
    workspaceId: string;
    actorRole: WorkspaceRole;
    /** The target's current role; null when the user is not a member yet. */
    currentRole: WorkspaceRole | null;
    /** The role asked for; null for a removal. */
    nextRole: WorkspaceRole | null;
  },
): Promise<void> {
  const { workspaceId, actorRole, currentRole, nextRole } = change;
  if ((currentRole === "owner" || nextRole === "owner") && actorRole !== "owner")
    throw new ForbiddenError("only an owner may make, demote or remove an owner");
  if (currentRole === "owner" && nextRole !== "owner" && (await tx.members.countOwners(workspaceId)) <= 1)
    throw new ConflictError("the workspace would be left without an owner; make another member owner first", {
      reasons: [{ field: nextRole === null ? "user_id" : "role", reason: "is the last owner of the workspace" }],
    });
}
