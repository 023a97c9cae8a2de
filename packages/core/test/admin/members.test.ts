import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAdminHarness, type AdminHarness } from "../support/admin-harness.js";

describe("admin API: members over a real socket", () => {
  let h: AdminHarness;
  beforeAll(async () => {
    h = await startAdminHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("adds by email, lists, changes roles and removes; never the last owner", async () => {
    const added = await h.call("POST", "/v1/members", "console:owner-1", { email: "Ana@Example.cl", role: "admin" });
    expect(added.status).toBe(201);
    expect(added.json).toMatchObject({ user_id: "ana@example.cl", email: "ana@example.cl", role: "admin" });
    expect((await h.call("POST", "/v1/members", h.adminKey, { email: "ana@example.cl", role: "member" })).status).toBe(
      409,
    );
    const list = await h.call("GET", "/v1/members", "console:ana@example.cl");
    expect(list.json.data.map((m: { user_id: string; role: string }) => [m.user_id, m.role])).toEqual([
      ["owner-1", "owner"],
      ["ana@example.cl", "admin"],
    ]);
    // An admin may not touch owners; the last owner can't step down or leave.
    expect((await h.call("PATCH", "/v1/members/owner-1", "console:ana@example.cl", { role: "member" })).status).toBe(
      403,
    );
    const last = await h.call("PATCH", "/v1/members/owner-1", "console:owner-1", { role: "admin" });
    expect(last.status).toBe(409);
    expect(last.json.error).toMatchObject({ code: "conflict", reasons: [{ field: "role" }] });
    expect((await h.call("DELETE", "/v1/members/owner-1", "console:owner-1")).status).toBe(409);
    // With a second owner the first may step down.
    const promoted = await h.call("PATCH", "/v1/members/ana%40example.cl", "console:owner-1", { role: "owner" });
    expect(promoted.json).toMatchObject({ user_id: "ana@example.cl", role: "owner" });
    expect((await h.call("PATCH", "/v1/members/owner-1", "console:owner-1", { role: "member" })).json.role).toBe(
      "member",
    );
    expect((await h.call("POST", "/v1/connectors", "console:owner-1", { name: "x", system: "x" })).status).toBe(403);
    expect((await h.call("DELETE", "/v1/members/owner-1", "console:ana@example.cl")).status).toBe(204);
    expect((await h.call("GET", "/v1/members", "console:owner-1")).status).toBe(403);
    expect((await h.call("DELETE", "/v1/members/nobody", "console:ana@example.cl")).status).toBe(404);
  });

  it("validates email and role naming the field", async () => {
    const bad = await h.call("POST", "/v1/members", h.adminKey, { email: "not-an-email", role: "boss" });
    expect(bad.status).toBe(422);
    expect(bad.json.error.reasons.map((r: { field: string }) => r.field).sort()).toEqual(["email", "role"]);
    const patch = await h.call("PATCH", "/v1/members/x", h.adminKey, { role: 3 });
    expect(patch.json.error.reasons[0].field).toBe("role");
    // An API key acts as an admin: it never adds an owner (nor an admin without every scope).
    expect((await h.call("POST", "/v1/members", h.adminKey, { email: "o@example.cl", role: "owner" })).status).toBe(
      403,
    );
  });
});
