import { ForbiddenError, InsufficientScopeError, VitrinaError } from "../errors.js";
import { requireScope, type Principal } from "../auth/principal.js";
import { SCOPES } from "../auth/scopes.js";
import type { WorkspaceRole } from "../ports/records.js";
import type { StorageRepositories } from "../ports/storage.js";

/**
 * Who calls the admin API, as the services judge it: a workspace and a role. A console session
 * takes the role of its user's membership (checked on every request, so a demotion applies at
 * once), and ends when the membership's session epoch is no longer the one it carries (signed
 * out). An API key acts as an `admin` with `admin:write`, as a `member` with only `admin:read`. An
 * OAuth token acts the same way for its user, but never above that user's role as of now: a member
 * can't become an admin by authorizing a client for `admin:write`, and a demotion applies at once.
 */
export interface AdminCaller {
  workspaceId: string;
  role: WorkspaceRole;
  /** The signed-in user (console sessions); absent for API keys. */
  userId?: string;
  principal: Principal;
}

export const ADMIN_READ = "admin:read";
export const ADMIN_WRITE = "admin:write";

/** Turns an authenticated principal into a caller, or refuses (`forbidden` / `insufficient_scope`). */
export async function resolveAdminCaller(
  repos: Pick<StorageRepositories, "workspaces">,
  principal: Principal,
): Promise<AdminCaller> {
  if (principal.kind === "console") {
    const userId = principal.subject ?? "";
    const member = await repos.workspaces.getMember(principal.workspaceId, userId);
    if (member === null) throw new ForbiddenError(`user ${userId} is not a member of this workspace`);
    if (principal.sessionEpoch !== undefined && principal.sessionEpoch !== member.sessionEpoch)
      throw new VitrinaError("unauthorized", "this console session has ended: it was signed out");
    return { workspaceId: principal.workspaceId, role: member.role, userId, principal };
  }
  requireScope(principal, ADMIN_READ);
  const role: WorkspaceRole = principal.scopes.includes(ADMIN_WRITE) ? "admin" : "member";
  if (principal.kind === "oauth" && principal.subject !== undefined) {
    const member = await repos.workspaces.getMember(principal.workspaceId, principal.subject);
    if (member === null) throw new ForbiddenError(`user ${principal.subject} is not a member of this workspace`);
    return { workspaceId: principal.workspaceId, role: member.role === "member" ? "member" : role, principal };
  }
  return { workspaceId: principal.workspaceId, role, principal };
}

/**
 * Owners and admins manage connectors, keys and members; members read. An API key without
 * `admin:write` is told which scope it lacks rather than which role.
 */
export function requireManager(caller: AdminCaller, action: string): void {
  if (caller.role === "owner" || caller.role === "admin") return;
  if (caller.principal.kind !== "console") requireScope(caller.principal, ADMIN_WRITE);
  throw new ForbiddenError(`only an owner or admin of the workspace may ${action}; this caller is a ${caller.role}`);
}

/**
 * No credential makes a principal stronger than itself. An admin or owner signs in to the console
 * and mints keys bounded by role alone, so making one hands over every scope: a key (or OAuth
 * token) may add or promote an admin only when it already holds every scope. A console session is
 * bounded by its role and the owner rules instead. Keys act as admins, so none makes an owner.
 */
export function requireMayGrantRole(caller: AdminCaller, role: WorkspaceRole): void {
  if (role === "member" || caller.principal.kind === "console") return;
  const held = new Set(caller.principal.scopes);
  const missing = SCOPES.filter((scope) => !held.has(scope));
  if (missing.length === 0) return;
  throw new InsufficientScopeError(
    `only a console session or a credential holding every scope may make an ${role}: an ${role} can mint a key with any scope`,
    {
      reasons: [
        { field: "role", reason: `the calling credential lacks ${missing.join(", ")}, so it can't make an ${role}` },
      ],
    },
  );
}
