import { API_BODY_LIMIT } from "../http/body-limits.js";
import { jsonResponse } from "../http/json.js";
import { listPageSchema } from "../http/route-doc.js";
import { ADMIN_BODY_ERRORS, adminOperation } from "./admin-operation.js";
import { adminBodySchemas } from "./admin-input.js";
import { memberViewSchema } from "./admin-view-schemas.js";
import { readJsonBody } from "../http/read-json.js";
import type { Route } from "../http/router.js";
import type { AdminHandler } from "./admin-guard.js";
import { parseMemberAdd, parseMemberUpdate } from "./admin-input.js";
import type { MemberAdmin } from "./member-admin.js";

/** `/v1/members…`: list, add by email, change role, remove (never the last owner: 409 `conflict`). */
export function memberRoutes(options: {
  members: MemberAdmin;
  guard: (route: string, handler: AdminHandler) => Route["handler"];
}): Route[] {
  const { members, guard } = options;
  return [
    {
      method: "GET",
      path: "/v1/members",
      openapi: adminOperation("read", {
        operationId: "members_list",
        summary: "Lists the workspace's members and their roles.",
        responses: { "200": { description: "Members.", schema: listPageSchema(memberViewSchema) } },
      }),
      handler: guard("members.list", async (caller) => jsonResponse(await members.list(caller))),
    },
    {
      method: "POST",
      path: "/v1/members",
      openapi: adminOperation("write", {
        operationId: "members_add",
        summary: "Adds a member by email with a role (owners and admins; only an owner adds an owner).",
        requestBody: { schema: adminBodySchemas.memberAdd },
        responses: { "201": { description: "Added.", schema: memberViewSchema } },
        errors: [409, ...ADMIN_BODY_ERRORS],
      }),
      handler: guard("members.add", async (caller, request) => {
        const input = parseMemberAdd(await readJsonBody(request, { maxBytes: API_BODY_LIMIT }));
        return jsonResponse(await members.add(caller, input), 201);
      }),
    },
    {
      method: "PATCH",
      path: "/v1/members/:userId",
      openapi: adminOperation("write", {
        operationId: "members_update",
        summary: "Changes a member's role (never the last owner's: 409).",
        requestBody: { schema: adminBodySchemas.memberUpdate },
        responses: { "200": { description: "Changed.", schema: memberViewSchema } },
        errors: [404, 409, ...ADMIN_BODY_ERRORS],
      }),
      handler: guard("members.update", async (caller, request, p) => {
        const { role } = parseMemberUpdate(await readJsonBody(request, { maxBytes: API_BODY_LIMIT }));
        return jsonResponse(await members.setRole(caller, p.userId!, role));
      }),
    },
    {
      method: "DELETE",
      path: "/v1/members/:userId",
      openapi: adminOperation("write", {
        operationId: "members_remove",
        summary: "Removes a member (never the last owner: 409).",
        responses: { "204": { description: "Removed." } },
        errors: [404, 409],
      }),
      handler: guard("members.remove", async (caller, request, p) => {
        await request.body?.cancel().catch(() => {});
        await members.remove(caller, p.userId!);
        return new Response(null, { status: 204 });
      }),
    },
  ];
}
