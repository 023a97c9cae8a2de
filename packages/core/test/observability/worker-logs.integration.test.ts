import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { observedVitrina } from "./support.js";

/** A receiver answering `status` to every delivery. */
async function receiver(status: number) {
  const server = createServer((_req, res) => {
    res.statusCode = status;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe("outbox worker and delivery logs", () => {
  it("logs the worker's start, a heartbeat with counts, and its stop", async () => {
    const h = await observedVitrina();
    const worker = h.vitrina.outbox.startWorker({ workerId: "w-test", sweepIntervalMs: 3_600_000 });
    await vi.waitFor(() => expect(h.lines).toContainEqual(expect.objectContaining({ msg: "outbox worker heartbeat" })));
    await worker.stop();
    const lifecycle = h.lines
      .filter((line) => line.workerId === "w-test")
      .map(({ level, msg, claimed, inFlight }) => ({ level, msg, claimed, inFlight }));
    expect(lifecycle).toEqual([
      { level: 30, msg: "outbox worker started", claimed: undefined, inFlight: undefined },
      { level: 20, msg: "outbox worker heartbeat", claimed: 0, inFlight: 0 },
      { level: 30, msg: "outbox worker stopping; finishing in-flight deliveries", claimed: undefined, inFlight: 0 },
      { level: 30, msg: "outbox worker stopped", claimed: undefined, inFlight: undefined },
    ]);
  });

  it("logs every attempt and its outcome, without the receiver's URL or the payload", async () => {
    const ok = await receiver(200);
    const failing = await receiver(500);
    try {
      const h = await observedVitrina({ webhooks: { allowInsecureLoopback: true } });
      const secret = "whsec_0123456789abcdefABCDEF-never-logged";
      const good = await h.vitrina.webhooks.create(h.workspace.id, { url: ok.url, events: ["quote.created"], secret });
      const bad = await h.vitrina.webhooks.create(h.workspace.id, {
        url: failing.url,
        events: ["quote.created"],
        secret,
      });
      const lead = await h.postLead(
        JSON.stringify({
          event: "lead.created",
          source_lead_id: "crm-1",
          contact: { phone_e164: "+56912345670", name: "Ana" },
          whatsapp_consent: { granted: true, timestamp: "2026-03-01T11:00:00Z", source: "form", purpose: "sales" },
        }),
      );
      const { contact_id } = await lead.json();
      await h.vitrina.quotes.create({
        workspaceId: h.workspace.id,
        contactId: contact_id,
        items: [{ sku: "SKU-1", quantity: 1, unitPrice: 1990 }],
      });
      expect(await h.vitrina.outbox.dispatcher.runOnce("w-once")).toBe(2);
      const attempts = h.lines.filter((line) => typeof line.deliveryId === "string");
      expect(attempts).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            level: 30,
            msg: "webhook delivered",
            subscriptionId: good.id,
            attempt: 1,
            outcome: "succeeded",
            statusCode: 200,
          }),
        ]),
      );
      const failed = attempts.find((line) => line.subscriptionId === bad.id);
      expect(failed).toMatchObject({
        level: 30,
        msg: "webhook attempt failed; retrying",
        attempt: 1,
        outcome: "pending",
        statusCode: 500,
        error: "HTTP 500",
        nextAttemptAt: expect.any(String),
      });
      expect(JSON.stringify(h.lines)).not.toContain(secret);
      expect(JSON.stringify(attempts)).not.toContain("127.0.0.1");
    } finally {
      await ok.close();
      await failing.close();
    }
  });
});
