import { wholeList, type ListPage } from "../http/list-page.js";
import { ConflictError, ForbiddenError, NotFoundError } from "../errors.js";
import { assertOwnerRules, withWorkspaceLocked } from "../workspaces/owner-rules.js";
import type { Clock } from "../ports/clock.js";
import type { MemberDetails } from "../ports/member-storage.js";
import type { WorkspaceRole } from "../ports/records.js";
import type { Storage, StorageTransaction } from "../ports/storage.js";
import { requireManager, requireMayGrantRole, type AdminCaller } from "./admin-caller.js";
import type { MemberAdd } from "./admin-input.js";
import { memberView, type MemberView } from "./admin-views.js";

/**
 * Members and roles. Owners and admins manage members; only an owner may make, demote or remove
 * an owner; only a console session or a key holding every scope may make an admin
 * (`requireMayGrantRole`); and a workspace never loses its last owner. That last rule reads the owner count and
 * then writes, so every change runs in a transaction that first locks the workspace row
 * (`members.lockWorkspace`): two owners demoting each other at once queue up, and the second sees
 * the first's demotion and is refused with `conflict`.
 */
export function createMemberAdmin(deps: { storage: Storage; clock: Clock }) {
  const { storage, clock } = deps;

  /** The caller's role as of now, inside the lock: a caller demoted a moment ago is no owner any more. */
  async function currentRole(tx: StorageTransaction, caller: AdminCaller): Promise<WorkspaceRole> {
    if (caller.userId === undefined) return caller.role;
    const me = await tx.members.get(caller.workspaceId, caller.userId);
    if (me === null) throw new ForbiddenError(`user ${caller.userId} is no longer a member of this workspace`);
    return me.role;
  }

  /** Locks the workspace, loads the target, and applies the owner rules before `change`. */
  async function changeMember<T>(
    caller: AdminCaller,
    userId: string,
    nextRole: WorkspaceRole | null,
    change: (tx: StorageTransaction, target: MemberDetails) => Promise<T>,
  ): Promise<T> {
    const action = nextRole === null ? "remove members" : "change member roles";
    requireManager(caller, action);
    if (nextRole !== null) requireMayGrantRole(caller, nextRole);
    return withWorkspaceLocked(storage, caller.workspaceId, async (tx) => {
      const role = await currentRole(tx, caller);
      requireManager({ ...caller, role }, action);
      const target = await tx.members.get(caller.workspaceId, userId);
      if (target === null) throw new NotFoundError(`user ${userId} is not a member of this workspace`);
      await assertOwnerRules(tx, {
        workspaceId: caller.workspaceId,
        actorRole: role,
        currentRole: target.role,
        nextRole,
      });
      return change(tx, target);
    });
  }

  return {
    async list(caller: AdminCaller): Promise<ListPage<MemberView>> {
      const members = await storage.members.list(caller.workspaceId);
      return wholeList(members.map(memberView));
    },

    /**
     * Adds a member by email. The member's user id is the address in lower case: the console's
     * sign-in hook must return that id for the invited person (see the core README, "Admin API").
     */
    async add(caller: AdminCaller, input: MemberAdd): Promise<MemberView> {
      requireManager(caller, "add members");
      requireMayGrantRole(caller, input.role);
      if (input.role === "owner" && caller.role !== "owner") throw new ForbiddenError("only an owner may add an owner");
      const email = input.email.toLowerCase();
      const member: MemberDetails = {
        workspaceId: caller.workspaceId,
        userId: email,
        role: input.role,
        email,
        addedAt: clock.now().toISOString(),
      };
      if (!(await storage.members.insert(member)))
        throw new ConflictError(`${email} is already a member of this workspace`, {
          reasons: [{ field: "email", reason: "is already a member" }],
        });
      return memberView(member);
    },

    async setRole(caller: AdminCaller, userId: string, role: WorkspaceRole): Promise<MemberView> {
      return changeMember(caller, userId, role, async (tx, target) => {
        const updated = await tx.members.setRole(caller.workspaceId, target.userId, role);
        if (updated === null) throw new NotFoundError(`user ${userId} is not a member of this workspace`);
        return memberView(updated);
      });
    },

    async remove(caller: AdminCaller, userId: string): Promise<void> {
      await changeMember(caller, userId, null, async (tx, target) => {
        await tx.members.remove(caller.workspaceId, target.userId);
      });
    },
  };
}
export type MemberAdmin = ReturnType<typeof createMemberAdmin>;
