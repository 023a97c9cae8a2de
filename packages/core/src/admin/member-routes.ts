import { jsonResponse } from "../http/json.js";
import { readJsonBody } from "../http/read-json.js";
import type { Route } from "../http/router.js";
import type { AdminHandler } from "./admin-guard.js";
import { parseMemberAdd, parseMemberUpdate } from "./admin-input.js";
import type { MemberAdmin } from "./member-admin.js";

const MAX_BODY_BYTES = 4 * 1024;

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
      handler: guard("members.list", async (caller) => jsonResponse(await members.list(caller))),
    },
    {
      method: "POST",
      path: "/v1/members",
      handler: guard("members.add", async (caller, request) => {
        const input = parseMemberAdd(await readJsonBody(request, { maxBytes: MAX_BODY_BYTES }));
        return jsonResponse(await members.add(caller, input), 201);
      }),
    },
    {
      method: "PATCH",
      path: "/v1/members/:userId",
      handler: guard("members.update", async (caller, request, p) => {
        const { role } = parseMemberUpdate(await readJsonBody(request, { maxBytes: MAX_BODY_BYTES }));
        return jsonResponse(await members.setRole(caller, p.userId!, role));
      }),
    },
    {
      method: "DELETE",
      path: "/v1/members/:userId",
      handler: guard("members.remove", async (caller, request, p) => {
        await request.body?.cancel().catch(() => {});
        await members.remove(caller, p.userId!);
        return new Response(null, { status: 204 });
      }),
    },
  ];
}
