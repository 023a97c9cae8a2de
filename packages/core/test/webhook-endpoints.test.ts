import { memoryStorage } from "@vitrina/adapter-memory";
import { createAesGcmSecretBox, createVitrina, type SecretBox, type VitrinaOptions } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { createManualClock } from "@vitrina/core/testing";
import { eventJsonSchemas, type WebhookSend } from "@vitrina/core/webhooks";
import { describe, expect, it } from "vitest";

const DAY = 86_400_000;
const KEY = Buffer.alloc(32, 5).toString("base64");
const SECRET = "whsec_endpoints_0123456789abcdef";

/** A receiver per URL path: `ok` answers 204, `broken` 500, `refusing` rejects like a closed port. */
const send: WebhookSend = async ({ url }) => {
  if (url.endsWith("/refusing"))
    throw Object.assign(new Error("connect ECONNREFUSED 203.0.113.9:443"), { code: "ECONNREFUSED" });
  return { status: url.endsWith("/ok") ? 204 : 500, head: new TextEncoder().encode("nope") };
};

/** A Vitrina on a manual clock with a logger that keeps its lines, a workspace, and an API key for it. */
async function setUp(webhooks: VitrinaOptions["webhooks"] = {}, secretBox: SecretBox | string = KEY) {
  const clock = createManualClock("2026-03-01T00:00:00.000Z");
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  const log = (level: string) => (fields: unknown, message?: string) =>
    lines.push({
      level,
      fields: typeof fields === "object" ? (fields as Record<string, unknown>) : {},
      message: message ?? String(fields),
    });
  const vitrina = createVitrina({
    storage: memoryStorage(),
    messaging: logMessagingTransport({ debug() {}, info() {}, warn() {}, error() {} }),
    secretBox,
    logger: { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") },
    clock,
    webhooks: { send, retry: { random: () => 0.5 }, externalWorker: true, ...webhooks },
  });
  const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner" });
  const { secret } = await vitrina.apiKeys.issue({ userId: "owner" }, workspace.id, {
    name: "ops",
    scopes: ["webhooks:read", "webhooks:write"],
  });
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await vitrina.handler(
      new Request(`http://vitrina.test${path}`, {
        method,
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      }),
    );
    const text = await response.text();
    return { status: response.status, json: text === "" ? null : JSON.parse(text) };
  };
  const subscribe = async (path: string, events = ["quote.created"]) =>
    (await api("POST", "/v1/webhooks", { url: `https://erp.example.cl/${path}`, events, secret: SECRET })).json
      .id as string;
  const contact = await vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164: "+56955550000" });
  /** One quote.created, fanned out to every subscriber of it. */
  const quote = () =>
    vitrina.quotes.create({
      workspaceId: workspace.id,
      contactId: contact.id,
      items: [{ sku: "SKU-1", quantity: 1, unitPrice: 1000 }],
    });
  /** Runs the worker until nothing is due now. */
  const drain = async () => {
    for (let guard = 0; guard < 50 && (await vitrina.outbox.dispatcher.runOnce("w")) > 0; guard++);
  };
  return { vitrina, clock, lines, api, subscribe, quote, drain, workspaceId: workspace.id };
}

describe("endpoint health", () => {
  it("tells a failing and a refusing endpoint from a healthy one: success rate over 24 h, last attempt, failing since", async () => {
    const { api, subscribe, quote, drain, clock } = await setUp();
    const ok = await subscribe("ok");
    const broken = await subscribe("broken");
    const refusing = await subscribe("refusing");
    const idle = await subscribe("ok", ["order.confirmed"]);
    const started = clock.now().toISOString();
    await quote();
    await quote();
    await drain();

    const health = async (id: string) => (await api("GET", `/v1/webhooks/${id}/health`)).json;
    expect(await health(ok)).toMatchObject({
      object: "webhook_endpoint_health",
      state: "healthy",
      window: { hours: 24 },
      attempts: 2,
      succeeded: 2,
      success_rate: 1,
      last_attempt: { at: started, succeeded: true, status_code: 204, error: null },
      failing_since: null,
      auto_disable_at: null,
    });
    expect(await health(broken)).toMatchObject({
      state: "failing",
      attempts: 2,
      succeeded: 0,
      success_rate: 0,
      last_attempt: { succeeded: false, status_code: 500, error: "HTTP 500" },
      failing_since: started,
      auto_disable_at: new Date(Date.parse(started) + 5 * DAY).toISOString(),
    });
    expect(await health(refusing)).toMatchObject({
      state: "failing",
      success_rate: 0,
      last_attempt: { succeeded: false, status_code: null, error: expect.stringContaining("ECONNREFUSED") },
      failing_since: started,
    });
    expect(await health(idle)).toMatchObject({ state: "idle", attempts: 0, success_rate: null, last_attempt: null });

    // The subscription's own view carries the figures its row holds; the list too.
    const list = (await api("GET", "/v1/webhooks")).json.data;
    expect(list.find((s: { id: string }) => s.id === broken)).toMatchObject({
      enabled: true,
      failing_since: started,
      last_attempt: { status_code: 500 },
    });
    // The window moves: a day later the two attempts no longer count, the last attempt still shows.
    clock.advance(DAY + 1);
    expect(await health(ok)).toMatchObject({ attempts: 0, success_rate: null, last_attempt: { at: started } });
    expect((await api("GET", "/v1/webhooks/whs_nope/health")).status).toBe(404);
  });
});

describe("auto-disable", () => {
  it("disables an endpoint that failed every attempt for 5 days, says why, logs it and notifies another endpoint", async () => {
    const { vitrina, api, subscribe, quote, drain, clock, lines, workspaceId } = await setUp();
    const broken = await subscribe("broken");
    const listener = await subscribe("ok", ["webhook_endpoint.disabled"]);
    await quote();
    await drain();
    const failingSince = (await api("GET", `/v1/webhooks/${broken}`)).json.failing_since;
    expect(failingSince).toBe(clock.now().toISOString());

    // Just short of five days: still enabled however often it fails.
    clock.advance(5 * DAY - 60_000);
    await quote();
    await drain();
    expect((await api("GET", `/v1/webhooks/${broken}`)).json.enabled).toBe(true);

    clock.advance(60_000);
    await quote();
    await vitrina.outbox.dispatcher.runOnce("w");
    const disabled = (await api("GET", `/v1/webhooks/${broken}`)).json;
    expect(disabled).toMatchObject({
      enabled: false,
      disabled_reason: "failed every delivery attempt for 5 days",
      failing_since: failingSince,
    });
    expect(lines.filter((l) => l.message.includes("every attempt failed for the auto-disable period"))).toEqual([
      expect.objectContaining({
        level: "warn",
        fields: expect.objectContaining({ subscriptionId: broken, failingSince }),
      }),
    ]);
    // Another endpoint hears of it, once, with the published schema's shape.
    const notices = (await api("GET", `/v1/webhooks/${listener}/deliveries?event_type=webhook_endpoint.disabled`)).json
      .data;
    expect(notices).toHaveLength(1);
    const notice = (await api("GET", `/v1/webhooks/${listener}/deliveries/${notices[0].id}`)).json.event;
    expect(notice.data).toEqual({
      subscription_id: broken,
      trigger: "failing",
      disabled_reason: "failed every delivery attempt for 5 days",
      failing_since: failingSince,
      disabled_at: clock.now().toISOString(),
    });
    expect(eventJsonSchemas()["webhook_endpoint.disabled"]).toMatchObject({ title: "webhook_endpoint.disabled" });
    // More failures of a disabled endpoint change nothing and emit nothing more.
    await quote();
    await drain();
    const events = await vitrina.storage.events.listByWorkspace(workspaceId, { type: "webhook_endpoint.disabled" });
    expect(events).toHaveLength(1);

    // Re-enabling starts afresh: no longer failing, so one more failure doesn't disable it again.
    const enabled = await api("PATCH", `/v1/webhooks/${broken}`, { enabled: true });
    expect(enabled.json).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    await quote();
    await drain();
    expect((await api("GET", `/v1/webhooks/${broken}`)).json).toMatchObject({
      enabled: true,
      failing_since: clock.now().toISOString(),
    });
  });

  it("never disables an endpoint for a fault of ours, however long it lasts", async () => {
    // The secret box can't open the subscription's signing secret (its key was changed): every
    // attempt fails as `internal`, which says nothing about the receiver.
    const box = createAesGcmSecretBox(KEY);
    const fault = { on: false };
    const faulty: SecretBox = {
      seal: (text) => box.seal(text),
      open: async (sealed) => {
        if (fault.on) throw new Error("the secret key changed");
        return box.open(sealed);
      },
    };
    const { api, subscribe, quote, drain, clock, lines } = await setUp({}, faulty);
    const ok = await subscribe("ok");
    fault.on = true;
    await quote();
    await drain();
    clock.advance(6 * DAY);
    await quote();
    await drain();
    const endpoint = (await api("GET", `/v1/webhooks/${ok}`)).json;
    expect(endpoint.last_attempt).toMatchObject({ error: expect.stringContaining("internal error") });
    expect(endpoint).toMatchObject({ enabled: true, disabled_reason: null });
    expect(lines.filter((l) => l.message.includes("auto-disable period"))).toEqual([]);
  });

  it("takes its period from webhooks.autoDisableAfterMs; false never disables; a bad value names the option", async () => {
    const never = await setUp({ autoDisableAfterMs: false });
    const broken = await never.subscribe("broken");
    await never.quote();
    await never.drain();
    never.clock.advance(30 * DAY);
    await never.quote();
    await never.drain();
    expect((await never.api("GET", `/v1/webhooks/${broken}`)).json.enabled).toBe(true);
    expect((await never.api("GET", `/v1/webhooks/${broken}/health`)).json.auto_disable_at).toBeNull();

    const hourly = await setUp({ autoDisableAfterMs: 3_600_000 });
    const quick = await hourly.subscribe("broken");
    await hourly.quote();
    await hourly.drain();
    hourly.clock.advance(3_600_000);
    await hourly.quote();
    await hourly.vitrina.outbox.dispatcher.runOnce("w");
    expect((await hourly.api("GET", `/v1/webhooks/${quick}`)).json).toMatchObject({
      enabled: false,
      disabled_reason: "failed every delivery attempt for 1 hour",
    });

    for (const bad of [0, -5, 1.5, Number.NaN, true]) {
      let error: unknown;
      try {
        await setUp({ autoDisableAfterMs: bad as number });
      } catch (e) {
        error = e;
      }
      expect(error, String(bad)).toMatchObject({
        code: "invalid_argument",
        reasons: [expect.objectContaining({ field: "webhooks.autoDisableAfterMs" })],
      });
    }
  });
});

describe("recovery", () => {
  it("requeues the failed deliveries since a time, bounded per call, and a second run requeues nothing again", async () => {
    const { api, subscribe, quote, drain, clock, vitrina, workspaceId, lines } = await setUp();
    const broken = await subscribe("broken");
    const before = clock.now().toISOString();
    for (let i = 0; i < 3; i++) {
      await quote();
      clock.advance(1000);
    }
    // The receiver stays down past every retry: the three deliveries end failed.
    for (let guard = 0; guard < 60; guard++) {
      await drain();
      clock.advance(3_600_000);
    }
    const failed = (await api("GET", `/v1/webhooks/${broken}/deliveries?status=failed`)).json.data;
    expect(failed).toHaveLength(3);
    // 60 hours of failures, short of the 5-day auto-disable: the endpoint is still enabled.
    const first = await api("POST", `/v1/webhooks/${broken}/recover`, { since: before, limit: 2 });
    expect(first).toMatchObject({
      status: 202,
      json: { object: "webhook_recovery", subscription_id: broken, requeued: 2, limit: 2, has_more: true },
    });
    const second = await api("POST", `/v1/webhooks/${broken}/recover`, { since: before });
    expect(second.json).toMatchObject({ requeued: 1, limit: 100, has_more: false });
    expect([...first.json.delivery_ids, ...second.json.delivery_ids].sort()).toEqual(
      failed.map((d: { id: string }) => d.id).sort(),
    );
    expect((await api("POST", `/v1/webhooks/${broken}/recover`, { since: before })).json).toMatchObject({
      requeued: 0,
      delivery_ids: [],
    });
    const requeued = (await api("GET", `/v1/webhooks/${broken}/deliveries?status=pending`)).json.data;
    expect(requeued.map((d: { next_attempt_at: string }) => d.next_attempt_at)).toEqual(
      Array(3).fill(clock.now().toISOString()),
    );

    // Bad input: named fields, stable code.
    const bad = async (body: unknown) => (await api("POST", `/v1/webhooks/${broken}/recover`, body)).json;
    expect(await bad({})).toMatchObject({
      error: { code: "invalid_payload", reasons: [{ field: "since", reason: expect.any(String) }] },
    });
    expect(await bad({ since: before, limit: 1001 })).toMatchObject({
      error: { code: "invalid_payload", reasons: [{ field: "limit" }] },
    });
    expect(await bad({ since: "2999-01-01T00:00:00Z" })).toMatchObject({
      error: { reasons: [{ field: "since", reason: "must not be in the future" }] },
    });
    expect(await bad({ since: before, everything: true })).toMatchObject({
      error: { reasons: [{ field: "everything" }] },
    });
    // Each refusal is logged with the endpoint and the fields at fault, never the values sent.
    const refusals = lines.filter((l) => l.message === "webhook recovery refused: invalid input");
    expect(refusals.map((l) => l.fields)).toEqual([
      { requestId: expect.any(String), workspaceId, subscriptionId: broken, fields: ["since"] },
      { requestId: expect.any(String), workspaceId, subscriptionId: broken, fields: ["limit"] },
      { requestId: expect.any(String), workspaceId, subscriptionId: broken, fields: ["since"] },
      { requestId: expect.any(String), workspaceId, subscriptionId: broken, fields: ["everything"] },
    ]);
    expect(JSON.stringify(refusals)).not.toContain("2999-01-01");
    // A disabled endpoint is enabled first.
    await vitrina.webhooks.update(workspaceId, broken, { enabled: false });
    expect((await api("POST", `/v1/webhooks/${broken}/recover`, { since: before })).json).toMatchObject({
      error: { code: "conflict" },
    });
  });
});

describe("delivery history", () => {
  it("filters by status and event type, finds an event's delivery, pages newer and older, and shows the body and headers sent", async () => {
    const { api, subscribe, quote, drain, clock, vitrina, workspaceId, lines } = await setUp();
    const ok = await subscribe("ok");
    for (let i = 0; i < 5; i++) {
      await quote();
      clock.advance(1000);
    }
    await drain();
    await vitrina.sendTestDelivery(workspaceId, ok);
    const page = async (query: string) => (await api("GET", `/v1/webhooks/${ok}/deliveries?${query}`)).json;
    const all = (await page("limit=100")).data.map((d: { id: string }) => d.id);
    expect(all).toHaveLength(6);
    expect((await page("status=pending")).data.map((d: { event_type: string }) => d.event_type)).toEqual([
      "webhook.test",
    ]);
    expect((await page("event_type=quote.created&status=succeeded")).data).toHaveLength(5);
    const third = (await page("limit=100")).data[2];
    expect((await page(`event_id=${third.event_id}`)).data.map((d: { id: string }) => d.id)).toEqual([third.id]);

    // Older from a cursor, then newer back from the older page's first row, then the first page.
    const older = await page(`limit=2&starting_after=${all[1]}`);
    expect(older).toMatchObject({ has_more: true });
    expect(older.data.map((d: { id: string }) => d.id)).toEqual([all[2], all[3]]);
    const newer = await page(`limit=2&ending_before=${all[2]}`);
    expect(newer.data.map((d: { id: string }) => d.id)).toEqual([all[0], all[1]]);
    expect(newer.has_more).toBe(false);
    expect((await page(`limit=1&ending_before=${all[2]}`)).has_more).toBe(true);
    expect((await page("limit=2")).data.map((d: { id: string }) => d.id)).toEqual([all[0], all[1]]);

    // One delivery: the exact body sent, and the headers with the signature redacted.
    const detail = (await api("GET", `/v1/webhooks/${ok}/deliveries/${third.id}`)).json;
    expect(detail.event).toMatchObject({ id: third.event_id, type: "quote.created", data: { currency: "CLP" } });
    const headers = detail.attempts[0].request_headers;
    expect(headers).toMatchObject({
      "content-type": "application/json",
      "user-agent": "Vitrina-Webhooks/1.0",
      "Vitrina-Event-Id": third.event_id,
    });
    expect(headers["Vitrina-Signature"]).toMatch(/^t=\d+,v1=<redacted>$/);
    expect(JSON.stringify(detail)).not.toContain(SECRET);
    expect((await api("GET", `/v1/webhooks/${ok}/deliveries/whd_nope`)).status).toBe(404);

    // Bad filters: 422 naming the query parameter.
    for (const [query, field] of [
      ["status=lost", "status"],
      ["event_type=quote.eaten", "event_type"],
      [`starting_after=${all[0]}&ending_before=${all[1]}`, "ending_before"],
      [`event_id=${"x".repeat(201)}`, "event_id"],
    ]) {
      const answer = await api("GET", `/v1/webhooks/${ok}/deliveries?${query}`);
      expect(answer, query).toMatchObject({
        status: 422,
        json: { error: { code: "invalid_payload", reasons: [expect.objectContaining({ field })] } },
      });
    }
    const refused = lines.filter((l) => l.message === "webhook delivery history refused: invalid input");
    expect(refused.map((l) => l.fields.fields)).toEqual([["status"], ["event_type"], ["ending_before"], ["event_id"]]);
  });
});
