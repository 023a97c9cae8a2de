import { NotFoundError } from "../errors.js";
import { adminOperation } from "./admin-operation.js";
import { jsonResponse } from "../http/json.js";
import type { Route } from "../http/router.js";
import type { Storage } from "../ports/storage.js";
import { ADMIN_READ, ADMIN_WRITE } from "./admin-caller.js";
import type { AdminHandler } from "./admin-guard.js";

/**
 * `GET /v1/admin/me`: who the console is talking as. `scopes` are the key's for an API key, and
 * what the member's role allows for a console session (owners and admins write, members read).
 */
export function meRoute(options: {
  storage: Storage;
  guard: (route: string, handler: AdminHandler) => Route["handler"];
}): Route {
  const { storage, guard } = options;
  return {
    method: "GET",
    path: "/v1/admin/me",
    openapi: adminOperation("read", {
      operationId: "admin_me",
      summary: "Who the caller is: the workspace, the member behind a console session, the role and scopes.",
      responses: {
        "200": {
          description: "The caller.",
          schema: {
            type: "object",
            required: ["workspace", "role", "scopes"],
            properties: {
              workspace: {
                type: "object",
                required: ["id", "name"],
                properties: { id: { type: "string" }, name: { type: "string" } },
              },
              user: {
                type: "object",
                required: ["id", "email", "role"],
                properties: {
                  id: { type: "string" },
                  email: { anyOf: [{ type: "string" }, { type: "null" }] },
                  role: { type: "string", enum: ["owner", "admin", "member"] },
                },
              },
              role: { type: "string", enum: ["owner", "admin", "member"] },
              scopes: { type: "array", items: { type: "string" } },
            },
          },
        },
      },
      errors: [404],
    }),
    handler: guard("admin.me", async (caller) => {
      const workspace = await storage.workspaces.get(caller.workspaceId);
      if (workspace === null) throw new NotFoundError(`workspace ${caller.workspaceId} does not exist`);
      const member = caller.userId === undefined ? null : await storage.members.get(caller.workspaceId, caller.userId);
      const scopes =
        caller.principal.kind === "console"
          ? caller.role === "member"
            ? [ADMIN_READ]
            : [ADMIN_READ, ADMIN_WRITE]
          : caller.principal.scopes;
      return jsonResponse({
        workspace: { id: workspace.id, name: workspace.name },
        ...(member === null ? {} : { user: { id: member.userId, email: member.email, role: member.role } }),
        role: caller.role,
        scopes,
      });
    }),
  };
}
