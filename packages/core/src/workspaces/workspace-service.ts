import { z } from "zod";
import { ForbiddenError, NotFoundError } from "../errors.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { MemberRecord, Vertical, WorkspaceRecord, WorkspaceRole } from "../ports/records.js";
import type { Storage, StorageRepositories } from "../ports/storage.js";
import { parseOrThrow } from "../validation.js";
import { assertOwnerRules, withWorkspaceLocked } from "./owner-rules.js";

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

const createInput = z.strictObject({
  id: z.string().min(1).optional(),
  name: z
    .string()
    .refine((name) => name.trim() !== "", "must not be empty")
    .transform((name) => name.trim()),
  ownerUserId: z.string().min(1),
  vertical: z.enum(["real_estate", "generic"]).default("real_estate"),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, "must be an ISO 4217 code such as CLP")
    .default("CLP"),
});
const getInput = z.strictObject({ workspaceId: z.string().min(1) });
const memberInput = z.strictObject({
  workspaceId: z.string().min(1),
  userId: z.string().min(1),
  role: z.enum(["owner", "admin", "member"]),
});

export function createWorkspaceService(deps: { storage: Storage; clock: Clock; ids: IdGenerator }) {
  const { storage, clock, ids } = deps;
  return {
    /** Creates a workspace with its first owner, in one transaction. */
    async create(input: CreateWorkspaceInput): Promise<WorkspaceRecord> {
      const parsed = parseOrThrow(createInput, input, "workspace");
      const workspace: WorkspaceRecord = {
        id: parsed.id ?? ids(),
        name: parsed.name,
        vertical: parsed.vertical,
        currency: parsed.currency,
        createdAt: clock.now().toISOString(),
      };
      await storage.transaction(async (tx) => {
        await tx.workspaces.insert(workspace);
        await tx.workspaces.upsertMember({ workspaceId: workspace.id, userId: parsed.ownerUserId, role: "owner" });
      });
      return workspace;
    },

    async get(input: z.input<typeof getInput>): Promise<WorkspaceRecord> {
      const { workspaceId } = parseOrThrow(getInput, input, "workspace lookup");
      const workspace = await storage.workspaces.get(workspaceId);
      if (workspace === null) throw new NotFoundError(`workspace ${workspaceId} does not exist`);
      return workspace;
    },

    /** The workspaces `actor` belongs to, with their role in each. */
    listForUser(actor: Actor): Promise<Array<WorkspaceRecord & { role: MemberRecord["role"] }>> {
      return storage.workspaces.listForUser(actor.userId);
    },

    /**
     * Adds or changes a member's role; only owners and admins may, under the owner rules of the
     * admin API (only an owner makes, demotes or replaces an owner; never the last owner), checked
     * with the workspace row locked so two owners demoting each other at once can't both win.
     */
    async setMember(actor: Actor, input: MemberRecord): Promise<void> {
      const member = parseOrThrow(memberInput, input, "member");
      await withWorkspaceLocked(storage, member.workspaceId, async (tx) => {
        const me = await requireRole(tx, actor, member.workspaceId, ["owner", "admin"], "manage members");
        const target = await tx.workspaces.getMember(member.workspaceId, member.userId);
        await assertOwnerRules(tx, {
          workspaceId: member.workspaceId,
          actorRole: me.role,
          currentRole: target?.role ?? null,
          nextRole: member.role,
        });
        await tx.workspaces.upsertMember(member);
      });
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
