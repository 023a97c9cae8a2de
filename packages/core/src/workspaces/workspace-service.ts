import { ForbiddenError, NotFoundError, VitrinaError } from "../errors.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { MemberRecord, Vertical, WorkspaceRecord, WorkspaceRole } from "../ports/records.js";
import type { Storage, StorageRepositories } from "../ports/storage.js";

/** Who is asking: a console user acting inside a workspace. */
export interface Actor {
  userId: string;
}

export interface CreateWorkspaceInput {
  /** Defaults to a generated id; give one to make setup scripts idempotent. */
  id?: string;
  name: string;
  ownerUserId: string;
  vertical?: Vertical;
  currency?: string;
}

export function createWorkspaceService(deps: { storage: Storage; clock: Clock; ids: IdGenerator }) {
  const { storage, clock, ids } = deps;
  return {
    /** Creates a workspace with its first owner, in one transaction. */
    async create(input: CreateWorkspaceInput): Promise<WorkspaceRecord> {
      if (input.name.trim() === "") throw new VitrinaError("invalid_argument", "workspace name must not be empty");
      const workspace: WorkspaceRecord = {
        id: input.id ?? ids(),
        name: input.name.trim(),
        vertical: input.vertical ?? "real_estate",
        currency: input.currency ?? "CLP",
        createdAt: clock.now().toISOString(),
      };
      await storage.transaction(async (tx) => {
        await tx.workspaces.insert(workspace);
        await tx.workspaces.upsertMember({ workspaceId: workspace.id, userId: input.ownerUserId, role: "owner" });
      });
      return workspace;
    },

    async get(workspaceId: string): Promise<WorkspaceRecord> {
      const workspace = await storage.workspaces.get(workspaceId);
      if (workspace === null) throw new NotFoundError(`workspace ${workspaceId} does not exist`);
      return workspace;
    },

    /** The workspaces `actor` belongs to, with their role in each. */
    listForUser(actor: Actor): Promise<Array<WorkspaceRecord & { role: MemberRecord["role"] }>> {
      return storage.workspaces.listForUser(actor.userId);
    },

    /** Adds or changes a member's role; only owners and admins may. */
    async setMember(actor: Actor, member: MemberRecord): Promise<void> {
      await requireRole(storage, actor, member.workspaceId, ["owner", "admin"], "manage members");
      await storage.workspaces.upsertMember(member);
    },
  };
}
export type WorkspaceService = ReturnType<typeof createWorkspaceService>;

/** Refuses unless `actor` holds one of `roles` in the workspace; says which role they have. */
export async function requireRole(
  repos: Pick<StorageRepositories, "workspaces">,
  actor: Actor,
  workspaceId: string,
  roles: WorkspaceRole[],
  action: string,
): Promise<MemberRecord> {
  const member = await repos.workspaces.getMember(workspaceId, actor.userId);
  if (member === null) {
    throw new ForbiddenError(`user ${actor.userId} is not a member of workspace ${workspaceId}`);
  }
  if (!roles.includes(member.role)) {
    throw new ForbiddenError(
      `only an ${roles.join(" or ")} of the workspace may ${action}; user ${actor.userId} is a ${member.role}`,
    );
  }
  return member;
}
