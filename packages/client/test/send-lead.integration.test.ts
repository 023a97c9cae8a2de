import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LeadIntakeResponse, LeadPayload } from "../src/index.js";
import { entries } from "./entries.js";

const connectorId = "6f1c2d3e-0000-4000-8000-000000000001";
const secret = "conn_secret";

const lead: LeadPayload = {
  event: "lead.created",
  source_lead_id: "crm-42",
  contact: { phone_e164: "+56911112222", name: "Ana Pérez 🏡" },
  qualification: { monthly_income: 2_500_000 },
  whatsapp_consent: { granted: true, timestamp: "2025-01-01T00:00:00Z" },
};

const accepted: LeadIntakeResponse = {
  accepted: true,
  duplicate: false,
  lead_event_id: "le_1",
  contact_id: "ct_1",
  opportunity_id: "op_1",
  eligible_for_whatsapp: true,
  outbound: { status: "queued", reason: null },
  qualification: { recorded: [{ field: "monthly_income", value: 2_500_000 }], rejected: [] },
};

/** Verifies like the real server would: raw bytes, node:crypto, constant-time compare. */
function signatureValid(req: IncomingMessage, raw: Buffer): boolean {
  const timestamp = String(req.headers["x-vitrina-timestamp"]);
  const given = Buffer.from(String(req.headers["x-vitrina-signature"]), "hex");
  const expected = createHmac("sha256", secret).update(`${timestamp}.`).update(raw).digest();
  return (
    req.headers["x-vitrina-connector-id"] === connectorId && given.length === 32 && timingSafeEqual(given, expected)
  );
}

let server: Server;
let base: string;
/** Requests that reached the redirect target: none may. */
const redirectedTo: string[] = [];

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const reply = (status: number, body: string) =>
      res.writeHead(status, { "Content-Type": "application/json" }).end(body);
    if (req.url === "/html-error") return reply(502, "<html>Bad gateway</html>");
    if (req.url === "/not-json") return reply(200, "ok");
    if (req.url === "/silent") return; // never answers
    if (req.url?.startsWith("/redirect/")) {
      res.writeHead(Number(req.url.slice("/redirect/".length)), { Location: `${base}/elsewhere` }).end();
      return;
    }
    if (req.url === "/elsewhere") {
      redirectedTo.push(req.method ?? "");
      return reply(200, JSON.stringify(accepted));
    }
    if (req.url === "/cut-body" || req.url === "/stalled-body") {
      // Status and headers go out, then only part of the promised body.
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": "500" }).write('{"accepted":');
      if (req.url === "/cut-body") setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    if (!signatureValid(req, raw))
      return reply(401, JSON.stringify({ error: { code: "invalid_signature", message: "signature mismatch" } }));
    const body = JSON.parse(raw.toString("utf8")) as LeadPayload;
    if (body.qualification?.monthly_income === "1-2M") {
      const reasons = [{ field: "qualification.monthly_income", reason: "ranges are not accepted" }, { bogus: true }];
      return reply(422, JSON.stringify({ error: { code: "invalid_payload", message: "lead rejected", reasons } }));
    }
    reply(200, JSON.stringify(accepted));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

describe.each(entries)("sendLead, %s", (_, client) => {
  const { sendLead, LeadIntakeError } = client;
  const send = (path: string, overrides: Partial<Parameters<typeof sendLead>[1]> = {}) =>
    sendLead(`${base}${path}`, { connectorId, secret, lead, ...overrides });
  const rejection = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.unreachable("should have thrown"),
      (error: unknown) => {
        expect(error).toBeInstanceOf(LeadIntakeError);
        return error as InstanceType<typeof LeadIntakeError>;
      },
    );

  it("posts a signed lead the server verifies, and returns the typed response", async () => {
    await expect(send("/functions/v1/lead-intake")).resolves.toEqual(accepted);
    await expect(send("/functions/v1/lead-intake", { lead: JSON.stringify(lead) })).resolves.toEqual(accepted);
  });

  it("throws a LeadIntakeError with the server's code, message and reasons", async () => {
    const error = await rejection(send("/", { lead: { ...lead, qualification: { monthly_income: "1-2M" } } }));
    expect(error).toMatchObject({ status: 422, code: "invalid_payload", message: "lead rejected" });
    expect(error.reasons).toEqual([{ field: "qualification.monthly_income", reason: "ranges are not accepted" }]);
    expect(await rejection(send("/", { secret: "wrong" }))).toMatchObject({
      status: 401,
      code: "invalid_signature",
      reasons: [],
    });
  });

  it("falls back gracefully on bodies that aren't the error shape", async () => {
    expect(await rejection(send("/html-error"))).toMatchObject({
      status: 502,
      code: "http_502",
      message: "<html>Bad gateway</html>",
    });
    expect(await rejection(send("/not-json"))).toMatchObject({ status: 200, code: "invalid_response" });
    const closed = await rejection(sendLead("http://127.0.0.1:1/", { connectorId, secret, lead }));
    expect(closed).toMatchObject({ status: 0, code: "network_error" });
  });

  it("reports a connection that breaks while the answer's body is read as network_error", async () => {
    const error = await rejection(send("/cut-body"));
    expect(error).toMatchObject({ status: 0, code: "network_error" });
    expect(error.message).toMatch(/answered 200 but the body broke off/);
    // The caller's own abort while the body is read still comes through as is.
    const controller = new AbortController();
    const abortAfterHeaders: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      controller.abort();
      return response;
    };
    await expect(send("/stalled-body", { fetch: abortAfterHeaders, signal: controller.signal })).rejects.toMatchObject({
      name: "AbortError",
    });
  });

  it("never follows a redirect with the signed lead: a 3xx is a `redirected` error naming the Location", async () => {
    for (const status of [301, 302, 303, 307, 308]) {
      const error = await rejection(send(`/redirect/${status}`));
      expect(error).toMatchObject({ status, code: "redirected" });
      expect(error.message).toContain(`${base}/elsewhere`);
    }
    expect(redirectedTo).toEqual([]);
  });

  it("gives up with `timeout` when no whole answer comes within timeoutMs, headers or body", async () => {
    for (const path of ["/silent", "/stalled-body"]) {
      const error = await rejection(send(path, { timeoutMs: 150 }));
      expect(error).toMatchObject({ status: 0, code: "timeout", message: "lead intake did not answer within 150 ms" });
    }
    // The caller's own abort is still its own, timeout or not.
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(send("/silent", { signal: controller.signal, timeoutMs: 10_000 })).rejects.toMatchObject({
      name: "AbortError",
    });
    for (const timeoutMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY])
      await expect(send("/", { timeoutMs })).rejects.toThrow(/timeoutMs must be a positive number of milliseconds/);
  });

  it("uses the injected fetch and abort signal", async () => {
    const seen: Request[] = [];
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(new Request(input, init));
      return Response.json(accepted);
    };
    await send("/x", { fetch, headerPrefix: "Acme", timestamp: 123 });
    expect(seen[0]?.headers.get("X-Acme-Timestamp")).toBe("123");
    const controller = new AbortController();
    controller.abort();
    await expect(send("/functions/v1/lead-intake", { signal: controller.signal })).rejects.toMatchObject({
      name: "AbortError",
    });
  });
});
