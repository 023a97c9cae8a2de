import { describe, expect, it } from "vitest";
import { RECEIVER_SECRET, startWebhookHarness } from "../support/webhook-harness.js";

const good = { url: "https://erp.example.cl/hooks", events: ["order.confirmed"], secret: RECEIVER_SECRET };

describe("subscription API", () => {
  it("refuses a missing, malformed or unknown API key with 401 and a Bearer challenge", async () => {
    const h = await startWebhookHarness();
    for (const key of [null, "nonsense", "vtr_live_notARealKeyAtAll000000000000000000000"]) {
      const res = await h.api("POST", "/v1/webhooks", good, key);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(res.json.error.code).toBe("unauthorized");
    }
    const none = await h.api("GET", "/v1/webhooks", undefined, null);
    expect(none.json.error.message).toMatch(/Authorization: Bearer/);
  });

  it("refuses a revoked key and a key without the scope (403 insufficient_scope)", async () => {
    const h = await startWebhookHarness();
    const owner = { userId: "owner" };
    const readOnly = await h.vitrina.apiKeys.issue(owner, h.workspace.id, { name: "ro", scopes: ["webhooks:read"] });
    expect(readOnly.secret).toMatch(/^vtr_live_/);
    expect(readOnly.key.visiblePrefix).toBe(readOnly.secret.slice(0, 13));
    expect((await h.api("GET", "/v1/webhooks", undefined, readOnly.secret)).status).toBe(200);
    const denied = await h.api("POST", "/v1/webhooks", good, readOnly.secret);
    expect(denied.status).toBe(403);
    expect(denied.json.error).toMatchObject({
      code: "insufficient_scope",
      reasons: [{ field: "scope", reason: "requires webhooks:write" }],
    });
    await h.vitrina.apiKeys.revoke(owner, h.workspace.id, readOnly.key.id);
    expect((await h.api("GET", "/v1/webhooks", undefined, readOnly.secret)).status).toBe(401);
    await expect(
      h.vitrina.apiKeys.issue({ userId: "stranger" }, h.workspace.id, { name: "x", scopes: [] }),
    ).rejects.toMatchObject({ code: "forbidden" });
    await expect(
      h.vitrina.apiKeys.issue(owner, h.workspace.id, { name: "x", scopes: ["admin:all"] }),
    ).rejects.toMatchObject({ code: "invalid_payload" });
  });

  it("explains every invalid field at once: URL, unknown event, weak secret", async () => {
    const h = await startWebhookHarness({ webhooks: {} });
    const res = await h.api("POST", "/v1/webhooks", {
      url: "http://erp.example.cl/hooks",
      events: ["order.confirmed", "order.shipped"],
      secret: "short",
    });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe("invalid_payload");
    expect(res.json.error.reasons).toEqual([
      { field: "url", reason: "url must use https" },
      { field: "events.1", reason: expect.stringContaining('unknown event type "order.shipped"') },
      { field: "secret", reason: expect.stringContaining("at least 24 characters") },
    ]);
    const shapes = await h.api("POST", "/v1/webhooks", {
      url: "not a url",
      events: [],
      secret: "a".repeat(30),
      extra: 1,
    });
    // An unknown key and a shape error don't hide the URL and secret checks: every reason at once.
    expect(shapes.json.error.reasons).toEqual([
      { field: "events", reason: "choose at least one event type" },
      { field: "extra", reason: "is not a recognised field" },
      { field: "url", reason: expect.stringContaining("absolute URL") },
      { field: "secret", reason: "is too repetitive; use a random value" },
    ]);
    const plain = await h.api("POST", "/v1/webhooks", { events: "order.confirmed", secret: 42 });
    expect(plain.json.error.reasons).toEqual([
      { field: "url", reason: "is required" },
      { field: "events", reason: "must be an array, not a string" },
      { field: "secret", reason: "must be a string, not a number" },
    ]);
    const notUrl = await h.api("POST", "/v1/webhooks", { ...good, url: "erp.example.cl" });
    expect(notUrl.json.error.reasons).toEqual([{ field: "url", reason: expect.stringContaining("absolute URL") }]);
    const repetitive = await h.api("POST", "/v1/webhooks", { ...good, secret: "a".repeat(30) });
    expect(repetitive.json.error.reasons).toEqual([
      { field: "secret", reason: "is too repetitive; use a random value" },
    ]);
  });

  it("refuses private, loopback, link-local and metadata destinations (SSRF)", async () => {
    const resolved: Record<string, string[]> = {
      "internal.example.com": ["93.184.216.34", "10.0.0.5"],
      "public.example.com": ["93.184.216.34"],
    };
    const h = await startWebhookHarness({
      webhooks: { allowInsecureLoopback: false, resolveHost: async (name) => resolved[name] ?? [] },
    });
    const refusedUrls = [
      "https://127.0.0.1/h",
      "https://localhost/h",
      "https://10.1.2.3/h",
      "https://192.168.1.1/h",
      "https://172.16.0.1/h",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/h",
      "https://[fd00:ec2::254]/h",
      "https://[::ffff:127.0.0.1]/h",
      "https://metadata.google.internal/x",
      "https://internal.example.com/h",
      "https://nowhere.example.com/h",
      "ftp://public.example.com/h",
    ];
    for (const url of refusedUrls) {
      const res = await h.api("POST", "/v1/webhooks", { ...good, url });
      expect(res.status, url).toBe(422);
      expect(res.json.error.reasons[0].field).toBe("url");
    }
    expect((await h.api("POST", "/v1/webhooks", { ...good, url: "https://public.example.com/h" })).status).toBe(201);
  });

  it("creates, lists, gets, updates and deletes subscriptions without ever echoing the secret", async () => {
    const h = await startWebhookHarness();
    const created = await h.api("POST", "/v1/webhooks", {
      ...good,
      events: ["order.confirmed", "order.confirmed", "payment.succeeded"],
    });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({
      id: expect.stringMatching(/^whs_/),
      object: "webhook_subscription",
      url: good.url,
      events: ["order.confirmed", "payment.succeeded"],
      signature_scheme: "vitrina",
      previous_secret_expires_at: null,
      enabled: true,
      disabled_reason: null,
      failing_since: null,
      last_attempt: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(JSON.stringify(created.json)).not.toContain(RECEIVER_SECRET);
    const stored = await h.vitrina.storage.webhookSubscriptions.get(h.workspace.id, created.json.id);
    expect(stored!.sealedSecret).not.toContain(RECEIVER_SECRET);
    const id = created.json.id;
    expect((await h.api("GET", "/v1/webhooks")).json).toEqual({
      object: "list",
      data: [created.json],
      has_more: false,
      next_cursor: null,
    });
    expect((await h.api("GET", `/v1/webhooks/${id}`)).json).toEqual(created.json);
    const off = await h.api("PATCH", `/v1/webhooks/${id}`, { enabled: false, events: ["quote.created"] });
    expect(off.json).toMatchObject({ enabled: false, disabled_reason: "disabled by API", events: ["quote.created"] });
    expect((await h.api("PATCH", `/v1/webhooks/${id}`, { secret: "weak" })).status).toBe(422);
    expect((await h.api("PATCH", `/v1/webhooks/${id}`, { enabled: true })).json).toMatchObject({
      enabled: true,
      disabled_reason: null,
    });
    expect((await h.api("DELETE", `/v1/webhooks/${id}`)).status).toBe(204);
    expect((await h.api("GET", `/v1/webhooks/${id}`)).json.error.code).toBe("not_found");
    expect((await h.api("POST", "/v1/webhooks", "{", undefined)).status).toBe(422);
  });

  it("keeps workspaces apart", async () => {
    const h = await startWebhookHarness();
    const id = (await h.api("POST", "/v1/webhooks", good)).json.id;
    const other = await h.vitrina.workspaces.create({ name: "Other", ownerUserId: "o2" });
    const { secret } = await h.vitrina.apiKeys.issue({ userId: "o2" }, other.id, {
      name: "k",
      scopes: ["webhooks:read", "webhooks:write"],
    });
    expect((await h.api("GET", `/v1/webhooks/${id}`, undefined, secret)).status).toBe(404);
    expect((await h.api("GET", "/v1/webhooks", undefined, secret)).json.data).toEqual([]);
  });

  it("pages delivery history newest first and resends a delivery with the same event id", async () => {
    const h = await startWebhookHarness({
      webhooks: { allowInsecureLoopback: true, fetch: async () => new Response("ok") },
    });
    const id = await h.subscribe("http://127.0.0.1:9/h");
    for (let i = 0; i < 5; i++) {
      await h.quote(100 + i);
      h.clock.advance(1000);
    }
    await h.vitrina.outbox.dispatcher.runOnce("w");
    const page1 = (await h.api("GET", `/v1/webhooks/${id}/deliveries?limit=2`)).json;
    expect(page1.has_more).toBe(true);
    expect(page1.data).toHaveLength(2);
    // The one list shape: next_cursor continues in the direction the page was read.
    expect(page1.next_cursor).toBe(page1.data[1].id);
    const page2 = (await h.api("GET", `/v1/webhooks/${id}/deliveries?limit=2&starting_after=${page1.next_cursor}`))
      .json;
    expect(page2.next_cursor).toBe(page2.data[1].id);
    const page3 = (await h.api("GET", `/v1/webhooks/${id}/deliveries?limit=2&starting_after=${page2.next_cursor}`))
      .json;
    expect(page3).toMatchObject({ has_more: false, next_cursor: null });
    // Read back up from the oldest page: a newer page continues from its first row.
    const newer = (await h.api("GET", `/v1/webhooks/${id}/deliveries?limit=2&ending_before=${page3.data[0].id}`)).json;
    expect(newer).toMatchObject({ has_more: true, next_cursor: page2.data[0].id });
    expect(newer.data.map((d: { id: string }) => d.id)).toEqual(page2.data.map((d: { id: string }) => d.id));
    const all = [...page1.data, ...page2.data, ...page3.data];
    expect(all.map((d) => d.created_at)).toEqual([...all.map((d) => d.created_at)].sort().reverse());
    expect((await h.api("GET", `/v1/webhooks/${id}/deliveries?limit=0`)).status).toBe(422);

    const target = all[0];
    const resent = await h.api("POST", `/v1/webhooks/${id}/deliveries/${target.id}/resend`);
    expect(resent.status).toBe(202);
    expect(resent.json).toMatchObject({ id: target.id, event_id: target.event_id, status: "pending" });
    await h.vitrina.outbox.dispatcher.runOnce("w");
    const after = (await h.api("GET", `/v1/webhooks/${id}/deliveries?limit=1`)).json.data[0];
    expect(after).toMatchObject({ status: "succeeded", attempt_count: 2 });
    expect(after.attempts).toHaveLength(2);
    expect((await h.api("POST", `/v1/webhooks/${id}/deliveries/whd_nope/resend`)).status).toBe(404);
  });
});
