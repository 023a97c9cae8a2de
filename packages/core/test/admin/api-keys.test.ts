import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAdminHarness, type AdminHarness } from "../support/admin-harness.js";

describe("admin API: API keys over a real socket", () => {
  let h: AdminHarness;
  beforeAll(async () => {
    h = await startAdminHarness({ members: ["mia"] });
  });
  afterAll(async () => {
    await h.close();
  });

  it("issues a key shown once, lists it by prefix and scopes, and records its last use at most once a minute", async () => {
    const issued = await h.call("POST", "/v1/api-keys", "console:owner-1", {
      name: "ERP",
      scopes: ["admin:read", "admin:read"],
    });
    expect(issued.status).toBe(201);
    expect(issued.headers.get("cache-control")).toBe("no-store");
    const key = issued.json.key as string;
    expect(key).toMatch(/^vtr_live_/);
    expect(issued.json.api_key).toMatchObject({
      name: "ERP",
      scopes: ["admin:read"],
      prefix: key.slice(0, 13),
      last_used_at: null,
      revoked_at: null,
    });
    const listed = () =>
      h
        .call("GET", "/v1/api-keys", "console:mia")
        .then((r) => r.json.data.find((k: { id: string }) => k.id === issued.json.api_key.id));
    expect(JSON.stringify((await h.call("GET", "/v1/api-keys", h.adminKey)).json)).not.toContain(key);

    const firstUse = h.clock.now().toISOString();
    expect((await h.call("GET", "/v1/admin/me", key)).status).toBe(200);
    expect((await listed()).last_used_at).toBe(firstUse);
    h.clock.advance(30_000);
    await h.call("GET", "/v1/admin/me", key);
    expect((await listed()).last_used_at).toBe(firstUse);
    h.clock.advance(31_000);
    const later = h.clock.now().toISOString();
    await h.call("GET", "/v1/admin/me", key);
    expect((await listed()).last_used_at).toBe(later);
  });

  it("revokes a key: refused with 401 on its next request", async () => {
    const issued = await h.call("POST", "/v1/api-keys", h.adminKey, { name: "temp", scopes: ["admin:read"] });
    const key = issued.json.key as string;
    expect((await h.call("GET", "/v1/connectors", key)).status).toBe(200);
    const revoked = await h.call("DELETE", `/v1/api-keys/${issued.json.api_key.id}`, "console:owner-1");
    expect(revoked.status).toBe(204);
    const refused = await h.call("GET", "/v1/connectors", key);
    expect(refused.status).toBe(401);
    expect(refused.json.error.code).toBe("unauthorized");
    expect(
      (await h.call("GET", "/v1/api-keys", h.adminKey)).json.data.find(
        (k: { id: string }) => k.id === issued.json.api_key.id,
      ).revoked_at,
    ).not.toBeNull();
    expect((await h.call("DELETE", "/v1/api-keys/unknown", h.adminKey)).status).toBe(404);
  });

  it("validates name and scopes naming the field; members may not issue or revoke", async () => {
    const bad = await h.call("POST", "/v1/api-keys", h.adminKey, { name: "ok", scopes: ["admin:read", "root"] });
    expect(bad.status).toBe(422);
    expect(bad.json.error.reasons).toEqual([{ field: "scopes.1", reason: expect.stringContaining("must be one of") }]);
    const empty = await h.call("POST", "/v1/api-keys", h.adminKey, { name: "   ", scopes: [] });
    expect(empty.json.error.reasons.map((r: { field: string }) => r.field).sort()).toEqual(["name", "scopes"]);
    expect((await h.call("POST", "/v1/api-keys", "console:mia", { name: "m", scopes: ["admin:read"] })).status).toBe(
      403,
    );
    const id = (await h.call("GET", "/v1/api-keys", "console:mia")).json.data[0].id;
    expect((await h.call("DELETE", `/v1/api-keys/${id}`, "console:mia")).status).toBe(403);
  });
});
