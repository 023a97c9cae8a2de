import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAdminHarness, type AdminHarness } from "../support/admin-harness.js";

const APP_SECRET = "meta-app-secret-1";

describe("admin API: the WhatsApp channel over a real socket", () => {
  let h: AdminHarness;
  let readOnly: string;
  beforeAll(async () => {
    h = await startAdminHarness({ members: ["mia"] });
    readOnly = (
      await h.vitrina.apiKeys.issue({ userId: "owner-1" }, h.workspace.id, { name: "ro", scopes: ["admin:read"] })
    ).secret;
  });
  afterAll(async () => {
    await h.close();
  });

  it("answers 404 with a clear message while the workspace has no channel", async () => {
    const none = await h.call("GET", "/v1/whatsapp-channel", h.adminKey);
    expect(none.status).toBe(404);
    expect(none.json.error.code).toBe("not_found");
    expect(none.json.error.message).toContain("PUT /v1/whatsapp-channel");
    expect((await h.call("DELETE", "/v1/whatsapp-channel", h.adminKey)).status).toBe(404);
  });

  it("creates the channel (201) with a verify token shown once, which passes the provider's handshake", async () => {
    const created = await h.call("PUT", "/v1/whatsapp-channel", h.adminKey, {
      phone_number_id: "1065",
      access_token: "EAAG-token",
      app_secret: APP_SECRET,
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("no-store");
    expect(created.json).toMatchObject({
      channel: { workspace_id: h.workspace.id, phone_number_id: "1065", sends_through: "cloud_api" },
      webhook_url: `${h.url}/functions/v1/whatsapp-webhook`,
    });
    const token = created.json.verify_token as string;
    expect(token).toMatch(/^vtr_wv_/);
    const challenge = await h.fetch(
      `${created.json.webhook_url}?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=42`,
    );
    expect(challenge.status).toBe(200);
    expect(await challenge.text()).toBe("42");

    const got = await h.call("GET", "/v1/whatsapp-channel", "console:mia");
    expect(got.status).toBe(200);
    expect(got.json).toEqual({ channel: created.json.channel, webhook_url: created.json.webhook_url });
    for (const secret of [token, APP_SECRET, "EAAG-token"]) expect(JSON.stringify(got.json)).not.toContain(secret);
  });

  it("changes the channel (200): no verify token unless generated, kept secrets stay, null access token is receive-only", async () => {
    const changed = await h.call("PUT", "/v1/whatsapp-channel", "console:owner-1", {
      phone_number_id: "1065",
      access_token: null,
      api_version: "v22.0",
      opt_out_keywords: ["BASTA"],
    });
    expect(changed.status).toBe(200);
    expect(changed.json).not.toHaveProperty("verify_token");
    expect(changed.json.channel).toMatchObject({
      sends_through: "messaging_transport",
      api_version: "v22.0",
      opt_out_keywords: ["BASTA"],
      default_keywords: { opt_out: false, opt_in: true },
    });
    // A verify token the caller chose is never echoed back either.
    const chosen = await h.call("PUT", "/v1/whatsapp-channel", h.adminKey, {
      phone_number_id: "1065",
      verify_token: "my-own-verify-token-123",
    });
    expect(chosen.status).toBe(200);
    expect(JSON.stringify(chosen.json)).not.toContain("my-own-verify-token-123");
  });

  it("names the snake_case field at fault, and refuses unknown keys and non-objects", async () => {
    const bad = await h.call("PUT", "/v1/whatsapp-channel", h.adminKey, {
      phone_number_id: "has space",
      app_secret: "short",
      graph_base_url: "ftp://x",
      api_version: "21",
      opt_in_keywords: ["ok", "!!!"],
    });
    expect(bad.status).toBe(422);
    expect(bad.json.error.code).toBe("invalid_payload");
    expect(bad.json.error.reasons.map((r: { field: string }) => r.field).sort()).toEqual([
      "api_version",
      "app_secret",
      "graph_base_url",
      "opt_in_keywords.1",
      "phone_number_id",
    ]);
    const unknown = await h.call("PUT", "/v1/whatsapp-channel", h.adminKey, {
      phone_number_id: "1065",
      phoneNumberId: "1065",
      workspace_id: "w-other",
    });
    expect(unknown.status).toBe(422);
    expect(unknown.json.error.reasons).toEqual([
      { field: "phoneNumberId", reason: "is not a recognised field" },
      { field: "workspace_id", reason: "is not a recognised field" },
    ]);
    for (const body of ["[]", "null", '"x"']) {
      const refused = await h.call("PUT", "/v1/whatsapp-channel", h.adminKey, body);
      expect(refused.status).toBe(422);
      expect(refused.json.error.reasons).toEqual([{ field: "", reason: "must be a JSON object" }]);
    }
  });

  it("refuses a phone number id another workspace holds with 409 naming phone_number_id", async () => {
    const other = await h.vitrina.workspaces.create({ name: "Otra", ownerUserId: "owner-2" });
    await h.vitrina.whatsapp.channels.put({ workspaceId: other.id, phoneNumberId: "2077", appSecret: APP_SECRET });
    const taken = await h.call("PUT", "/v1/whatsapp-channel", h.adminKey, { phone_number_id: "2077" });
    expect(taken.status).toBe(409);
    expect(taken.json.error).toMatchObject({
      code: "conflict",
      reasons: [{ field: "phone_number_id", reason: "is already connected to another workspace" }],
    });
    expect((await h.call("GET", "/v1/whatsapp-channel", h.adminKey)).json.channel.phone_number_id).toBe("1065");
  });

  it("lets members and read-only keys read but not set or remove", async () => {
    expect((await h.call("GET", "/v1/whatsapp-channel", readOnly)).status).toBe(200);
    const byKey = await h.call("PUT", "/v1/whatsapp-channel", readOnly, { phone_number_id: "1065" });
    expect(byKey.status).toBe(403);
    expect(byKey.json.error.code).toBe("insufficient_scope");
    const byMember = await h.call("PUT", "/v1/whatsapp-channel", "console:mia", { phone_number_id: "1065" });
    expect(byMember.status).toBe(403);
    expect(byMember.json.error.code).toBe("forbidden");
    expect((await h.call("DELETE", "/v1/whatsapp-channel", readOnly)).json.error.code).toBe("insufficient_scope");
    expect((await h.call("DELETE", "/v1/whatsapp-channel", "console:mia")).json.error.code).toBe("forbidden");
    expect((await h.call("GET", "/v1/whatsapp-channel", "console:stranger")).status).toBe(403);
    expect((await h.call("GET", "/v1/whatsapp-channel", "vtr_live_unknown")).status).toBe(401);
  });

  it("removes the channel (204), then answers 404; creating again needs app_secret", async () => {
    const removed = await h.call("DELETE", "/v1/whatsapp-channel", "console:owner-1");
    expect(removed.status).toBe(204);
    expect((await h.call("GET", "/v1/whatsapp-channel", h.adminKey)).status).toBe(404);
    const noSecret = await h.call("PUT", "/v1/whatsapp-channel", h.adminKey, { phone_number_id: "1065" });
    expect(noSecret.status).toBe(422);
    expect(noSecret.json.error.reasons.map((r: { field: string }) => r.field)).toEqual(["app_secret"]);
  });
});
