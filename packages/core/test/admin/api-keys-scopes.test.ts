import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAdminHarness, type AdminHarness } from "../support/admin-harness.js";

// An API key with `admin:write` manages keys as an admin would, but it must not mint a key that
// can do more than itself: a leaked `admin:read admin:write` key would otherwise turn into
// `customers:write`, `webhooks:write` and every other scope in one request.
describe("admin API: a key issues keys only within its own scopes", () => {
  let h: AdminHarness;
  beforeAll(async () => {
    h = await startAdminHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("refuses scopes the calling key lacks, naming each (403 insufficient_scope), and issues nothing", async () => {
    const before = (await h.call("GET", "/v1/api-keys", h.adminKey)).json.data.length;
    const refused = await h.call("POST", "/v1/api-keys", h.adminKey, {
      name: "wider",
      scopes: ["admin:read", "customers:write", "webhooks:write"],
    });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe("insufficient_scope");
    expect(refused.json.error.reasons).toEqual([
      { field: "scopes.1", reason: expect.stringContaining("customers:write") },
      { field: "scopes.2", reason: expect.stringContaining("webhooks:write") },
    ]);
    expect(JSON.stringify(refused.json)).not.toContain("vtr_live_");
    expect((await h.call("GET", "/v1/api-keys", h.adminKey)).json.data.length).toBe(before);
  });

  it("issues a key with the caller's scopes or fewer", async () => {
    const same = await h.call("POST", "/v1/api-keys", h.adminKey, {
      name: "same",
      scopes: ["admin:write", "admin:read"],
    });
    expect(same.status).toBe(201);
    const narrower = await h.call("POST", "/v1/api-keys", same.json.key, { name: "read", scopes: ["admin:read"] });
    expect(narrower.status).toBe(201);
    expect(narrower.json.api_key.scopes).toEqual(["admin:read"]);
  });

  it("a console owner or admin still grants any scope (their role, not a key, bounds them)", async () => {
    const wide = await h.call("POST", "/v1/api-keys", "console:owner-1", {
      name: "integration",
      scopes: ["customers:write", "webhooks:write"],
    });
    expect(wide.status).toBe(201);
  });
});
