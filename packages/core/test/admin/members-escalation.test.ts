import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCOPES } from "@vitrina/core";
import { startAdminHarness, type AdminHarness } from "../support/admin-harness.js";

// Issue 40, item 5: no credential creates or promotes a principal more powerful than itself. An
// admin can sign in to the console and mint a key with every scope, so a key holding only
// `admin:read admin:write` must not make one; only a key that already holds every scope may.
describe("admin API: members no stronger than the credential that adds them", () => {
  let h: AdminHarness;
  beforeAll(async () => {
    h = await startAdminHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("an admin-only key can't add an admin or owner, nor promote a member (403 insufficient_scope)", async () => {
    const asAdmin = await h.call("POST", "/v1/members", h.adminKey, { email: "eve@example.cl", role: "admin" });
    expect(asAdmin.status).toBe(403);
    expect(asAdmin.json.error).toMatchObject({ code: "insufficient_scope", reasons: [{ field: "role" }] });
    expect(asAdmin.json.error.reasons[0].reason).toContain("customers:read");
    expect((await h.call("POST", "/v1/members", h.adminKey, { email: "o@example.cl", role: "owner" })).status).toBe(
      403,
    );
    // A member it may add; promoting that member is refused the same way.
    const member = await h.call("POST", "/v1/members", h.adminKey, { email: "eve@example.cl", role: "member" });
    expect(member.status).toBe(201);
    const promote = await h.call("PATCH", "/v1/members/eve%40example.cl", h.adminKey, { role: "admin" });
    expect(promote.status).toBe(403);
    expect(promote.json.error.code).toBe("insufficient_scope");
    const list = await h.call("GET", "/v1/members", h.adminKey);
    expect(list.json.data.map((m: { user_id: string; role: string }) => [m.user_id, m.role])).toEqual([
      ["owner-1", "owner"],
      ["eve@example.cl", "member"],
    ]);
    // Demoting is no escalation: still allowed.
    expect((await h.call("PATCH", "/v1/members/eve%40example.cl", h.adminKey, { role: "member" })).status).toBe(200);
  });

  it("a key holding every scope may add and promote an admin; a console admin may add an admin", async () => {
    const full = await h.call("POST", "/v1/api-keys", "console:owner-1", { name: "full", scopes: [...SCOPES] });
    expect(full.status).toBe(201);
    const added = await h.call("POST", "/v1/members", full.json.key, { email: "ana@example.cl", role: "admin" });
    expect(added.status).toBe(201);
    await h.call("POST", "/v1/members", full.json.key, { email: "bo@example.cl", role: "member" });
    expect((await h.call("PATCH", "/v1/members/bo%40example.cl", full.json.key, { role: "admin" })).status).toBe(200);
    // Keys act as admins, so not even a full key makes an owner; a console owner does.
    expect((await h.call("POST", "/v1/members", full.json.key, { email: "o@example.cl", role: "owner" })).status).toBe(
      403,
    );
    const byConsoleAdmin = await h.call("POST", "/v1/members", "console:ana@example.cl", {
      email: "cy@example.cl",
      role: "admin",
    });
    expect(byConsoleAdmin.status).toBe(201);
  });

  it("an OAuth token acts for its user, never above their role now: a member's admin:write token adds nobody", async () => {
    await h.call("POST", "/v1/members", "console:owner-1", { email: "mo@example.cl", role: "member" });
    const every = [...SCOPES].join(",");
    const memberToken = `oauth:mo@example.cl:${every}`;
    const asMember = await h.call("POST", "/v1/members", memberToken, { email: "z@example.cl", role: "member" });
    expect(asMember.status).toBe(403);
    expect(asMember.json.error.code).toBe("forbidden");
    expect((await h.call("POST", "/v1/api-keys", memberToken, { name: "k", scopes: ["admin:read"] })).status).toBe(403);
    expect((await h.call("POST", "/v1/connectors", memberToken, { name: "c", system: "c" })).status).toBe(403);
    expect((await h.call("GET", "/v1/members", memberToken)).status).toBe(200);
    // The owner's token with every scope may add an admin; the same token of a stranger is refused.
    const ownerToken = `oauth:owner-1:${every}`;
    expect((await h.call("POST", "/v1/members", ownerToken, { email: "adm@example.cl", role: "admin" })).status).toBe(
      201,
    );
    expect((await h.call("GET", "/v1/members", `oauth:stranger:${every}`)).status).toBe(403);
    // An admin's token with only admin scopes still can't make an admin.
    const narrow = await h.call("POST", "/v1/members", "oauth:adm@example.cl:admin:read,admin:write", {
      email: "y@example.cl",
      role: "admin",
    });
    expect(narrow.status).toBe(403);
    expect(narrow.json.error.code).toBe("insufficient_scope");
  });
});
