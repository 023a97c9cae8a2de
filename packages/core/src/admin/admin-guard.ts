import { requirePrincipal, type AcceptedCredentials, type Authenticator } from "../auth/principal.js";
import { isVitrinaError } from "../errors.js";
import type { RouteHandler } from "../http/router.js";
import type { StorageRepositories } from "../ports/storage.js";
import { resolveAdminCaller, type AdminCaller } from "./admin-caller.js";

export type AdminHandler = (caller: AdminCaller, request: Request, params: Record<string, string>) => Promise<Response>;

/**
 * Authenticates, resolves the caller's role, runs the handler, and logs every refusal (code,
 * route, who: principal kind and key or user id, never a credential or a body) at info level,
 * so an operator can tell a mistyped scope from an attack. 5xx are logged by the router.
 */
export function adminGuard(deps: {
  storage: Pick<StorageRepositories, "workspaces">;
  authenticate: Authenticator;
  accepts?: AcceptedCredentials;
}) {
  return (route: string, handler: AdminHandler): RouteHandler =>
    async (request, params, context) => {
      let who: Record<string, unknown> = {};
      try {
        const principal = await requirePrincipal(deps.authenticate, request, deps.accepts);
        who = { principal: principal.kind, keyId: principal.keyId, workspaceId: principal.workspaceId };
        const caller = await resolveAdminCaller(deps.storage, principal);
        return await handler(caller, request, params);
      } catch (error) {
        if (isVitrinaError(error) && error.code !== "internal" && !error.code.startsWith("storage_")) {
          context.logger.info(
            { code: error.code, method: request.method, route, fields: error.reasons.map((r) => r.field), ...who },
            "admin request refused",
          );
        }
        throw error;
      }
    };
}
