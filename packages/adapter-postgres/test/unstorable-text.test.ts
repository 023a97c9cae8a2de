import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVitrina, silentLogger, type Storage } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { sampleLead, startLeadHarness, type LeadHarness } from "../../http-node/test/support/lead-harness.js";
import { backends, openTestStorage } from "./support.js";

// Text PostgreSQL cannot store (U+0000; lone surrogates cannot come through a URL, they decode to
// U+FFFD or fail) reaching the database through URLs, forms and headers used to be a 500. Each of
// these must now be refused at the edge, naming the field, before storage sees it.
describe.each(backends)("unstorable text at the HTTP edge on %s", (backend) => {
  let storage: Storage;
  let vitrina: ReturnType<typeof createVitrina>;
  let apiKey: string;

  beforeAll(async () => {
    ({ storage } = await openTestStorage(backend));
    vitrina = createVitrina({
      storage,
      messaging: logMessagingTransport(silentLogger),
      secretBox: Buffer.alloc(32, 9).toString("base64"),
      oauth: { authorize: async () => new Response("login", { status: 302, headers: { location: "/login" } }) },
    });
    const workspace = await vitrina.workspaces.create({ name: "Edge", ownerUserId: "owner" });
    ({ secret: apiKey } = await vitrina.apiKeys.issue({ userId: "owner" }, workspace.id, {
      name: "edge",
      scopes: ["webhooks:read", "webhooks:write"],
    }));
  });
  afterAll(async () => {
    await storage?.close();
  });

  async function send(method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) {
    const response = await vitrina.handler(
      new Request(`http://vitrina.test${path}`, { method, headers: init.headers, body: init.body }),
    );
    return { status: response.status, body: (await response.json()) as any };
  }
  const bearer = () => ({ authorization: `Bearer ${apiKey}` });
  const form = { "content-type": "application/x-www-form-urlencoded" };

  it("GET /authorize?client_id=a%00b is a 400 naming client_id", async () => {
    const { status, body } = await send(
      "GET",
      "/authorize?response_type=code&client_id=a%00b&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb",
    );
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: "invalid_argument", reasons: [{ field: "client_id" }] });
  });

  it.each(["/token", "/revoke"])(
    "POST %s with a client_id holding U+0000 is a 400 invalid_request naming client_id",
    async (path) => {
      const { status, body } = await send("POST", path, {
        headers: form,
        body: "grant_type=authorization_code&code=x&token=x&client_id=a%00b",
      });
      expect(status).toBe(400);
      expect(body).toMatchObject({ error: "invalid_request", error_description: expect.stringContaining("client_id") });
    },
  );

  it.each(["/token", "/revoke"])(
    "POST %s with Basic credentials holding U+0000 is a 401 invalid_client",
    async (path) => {
      const basic = btoa("a%00b:secret");
      const { status, body } = await send("POST", path, {
        headers: { ...form, authorization: `Basic ${basic}` },
        body: "grant_type=authorization_code&code=x&token=x",
      });
      expect(status).toBe(401);
      expect(body).toMatchObject({ error: "invalid_client" });
    },
  );

  it.each([
    ["GET", "/v1/webhooks/whs_x%00", "id"],
    ["PATCH", "/v1/webhooks/whs_x%00", "id"],
    ["DELETE", "/v1/webhooks/whs_x%00", "id"],
    ["GET", "/v1/webhooks/whs_x%00/deliveries", "id"],
    ["POST", "/v1/webhooks/whs_x/deliveries/d%00/resend", "deliveryId"],
    ["GET", "/v1/webhooks/whs_x/deliveries?starting_after=d%00", "starting_after"],
  ])("%s %s is a 400 naming %s", async (method, path, field) => {
    const { status, body } = await send(method, path, {
      headers: { ...bearer(), "content-type": "application/json" },
      body: method === "PATCH" ? "{}" : undefined,
    });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: "invalid_argument", reasons: [{ field }] });
  });

  it("a real subscription's deliveries with starting_after=a%00 is a 400, not a 500", async () => {
    const created = await send("POST", "/v1/webhooks", {
      headers: { ...bearer(), "content-type": "application/json" },
      body: JSON.stringify({
        url: "https://93.184.216.34/hook",
        events: ["quote.created"],
        secret: crypto.randomUUID() + crypto.randomUUID(),
      }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { status, body } = await send("GET", `/v1/webhooks/${created.body.id}/deliveries?starting_after=a%00`, {
      headers: bearer(),
    });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: "invalid_argument", reasons: [{ field: "starting_after" }] });
  });
});

describe("Authorization: Basic with a malformed percent-escape", () => {
  it.each(["/token", "/revoke"])("POST %s answers 401 invalid_client", async (path) => {
    const { memoryStorage } = await import("@vitrina/adapter-memory");
    const vitrina = createVitrina({
      storage: memoryStorage(),
      messaging: logMessagingTransport(silentLogger),
      secretBox: Buffer.alloc(32, 9).toString("base64"),
      oauth: { authorize: async () => new Response(null, { status: 204 }) },
    });
    for (const credentials of ["%zz:secret", "client:%E0%A4%A", "%:x"]) {
      const response = await vitrina.handler(
        new Request(`http://vitrina.test${path}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${btoa(credentials)}` },
          body: "grant_type=authorization_code&code=x&token=x",
        }),
      );
      expect(response.status, credentials).toBe(401);
      expect(await response.json()).toMatchObject({ error: "invalid_client" });
    }
  });
});

// Signed leads carrying the same characters in their JSON body: refused (400 or 422, never a 500)
// and nothing stored, whichever layer refuses (the JSON reader, or storage as a last line).
describe.each(backends)("signed leads with unstorable text on %s", (backend) => {
  let h: LeadHarness;
  beforeAll(async () => {
    h = await startLeadHarness({ storage: (await openTestStorage(backend)).storage });
  });
  afterAll(async () => {
    await h?.close();
  });

  it.each([
    ["source_lead_id", (bad: string) => sampleLead({ source_lead_id: bad })],
    [
      "contact.name",
      (bad: string) => {
        const lead = sampleLead();
        return { ...lead, contact: { ...lead.contact, name: bad } };
      },
    ],
    ["metadata", (bad: string) => sampleLead({ metadata: { note: bad } })],
    ["a metadata key", (bad: string) => sampleLead({ metadata: { [bad]: 1 } })],
  ])("%s is refused without a 500 or a stored lead", async (_field, build) => {
    for (const bad of ["a\u0000b", "a\uD800b", "\uDFFF"]) {
      const before = await h.counts();
      const { status, json } = await h.send(build(bad));
      expect([400, 422], JSON.stringify(json)).toContain(status);
      expect(json.error.reasons.length).toBeGreaterThan(0);
      expect(await h.counts()).toEqual(before);
    }
  });
});
