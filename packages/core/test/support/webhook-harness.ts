import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, silentLogger, type Storage, type VitrinaOptions } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { createManualClock } from "@vitrina/core/testing";

export const SECRET_BOX_KEY = Buffer.alloc(32, 9).toString("base64");
export const RECEIVER_SECRET = "whsec_test_0123456789abcdefABCDEF";

export interface ReceivedDelivery {
  headers: IncomingMessage["headers"];
  body: string;
  at: number;
}

/** A real receiver on 127.0.0.1:0; `respond` decides each answer (default 200). */
export async function startReceiver(
  respond: (d: ReceivedDelivery, res: ServerResponse, n: number) => void = (_d, res) => res.end("ok"),
) {
  const received: ReceivedDelivery[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const delivery = { headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      received.push(delivery);
      respond(delivery, res, received.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    url,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A receiver that counts any moment the same event id is in flight twice (must stay 0). */
export async function startExclusiveReceiver(delayMs: number) {
  const inFlight = new Set<string>();
  let overlaps = 0;
  const receiver = await startReceiver((d, res) => {
    const id = d.headers["vitrina-event-id"] as string;
    if (inFlight.has(id)) overlaps++;
    inFlight.add(id);
    setTimeout(() => {
      inFlight.delete(id);
      res.end();
    }, delayMs);
  });
  return { ...receiver, overlaps: () => overlaps };
}

/** Verifies `Vitrina-Signature` with node:crypto only: independent of core's WebCrypto code. */
export function verifyWithNodeCrypto(header: string | undefined, body: string, secret: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? "");
  if (!match) return false;
  const expected = createHmac("sha256", Buffer.from(secret, "utf8"))
    .update(`${match[1]}.`)
    .update(body, "utf8")
    .digest();
  return timingSafeEqual(expected, Buffer.from(match[2]!, "hex"));
}

/** A Vitrina over memory storage with a manual clock, one workspace, and an API key with both webhook scopes. */
export async function startWebhookHarness(over: Partial<VitrinaOptions> & { storage?: Storage } = {}) {
  const clock = createManualClock(Date.now());
  const vitrina = createVitrina({
    storage: over.storage ?? memoryStorage(),
    messaging: logMessagingTransport(silentLogger),
    secretBox: SECRET_BOX_KEY,
    clock,
    ...over,
    webhooks: { allowInsecureLoopback: true, retry: { random: () => 0.5 }, ...over.webhooks },
  });
  const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner" });
  const { secret: apiKey } = await vitrina.apiKeys.issue({ userId: "owner" }, workspace.id, {
    name: "ERP",
    scopes: ["webhooks:read", "webhooks:write"],
  });
  const contact = await vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164: "+56911112222" });

  async function api(method: string, path: string, body?: unknown, key: string | null = apiKey) {
    const headers: Record<string, string> = {};
    if (key !== null) headers.authorization = `Bearer ${key}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await vitrina.handler(
      new Request(`http://vitrina.test${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await response.text();
    return { status: response.status, headers: response.headers, json: text === "" ? null : (JSON.parse(text) as any) };
  }

  async function subscribe(url: string, events: string[] = ["quote.created"]) {
    const created = await api("POST", "/v1/webhooks", { url, events, secret: RECEIVER_SECRET });
    if (created.status !== 201) throw new Error(`subscribe failed: ${JSON.stringify(created.json)}`);
    return created.json.id as string;
  }

  /** Emits one `quote.created` through the real domain operation. */
  function quote(unitPrice = 1990) {
    return vitrina.quotes.create({
      workspaceId: workspace.id,
      contactId: contact.id,
      items: [{ sku: "SKU-1", quantity: 2, unitPrice }],
    });
  }

  return { vitrina, clock, workspace, contact, apiKey, api, subscribe, quote };
}
