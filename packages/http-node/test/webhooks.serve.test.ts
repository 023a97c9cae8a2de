import { nodeHostResolver, serveVitrina, startWorker } from "@vitrina/http-node";
import { describe, expect, it } from "vitest";
import { RECEIVER_SECRET, startReceiver, startWebhookHarness } from "./support/webhook-harness.js";

describe("http-node worker", () => {
  it("serveVitrina runs the worker beside the server; the API works over a real socket", async () => {
    const receiver = await startReceiver();
    const h = await startWebhookHarness();
    const server = await serveVitrina(h.vitrina, { port: 0, handleSignals: false });
    try {
      const created = await fetch(`${server.url}/v1/webhooks`, {
        method: "POST",
        headers: { authorization: `Bearer ${h.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ url: receiver.url, events: ["quote.created"], secret: RECEIVER_SECRET }),
      });
      expect(created.status).toBe(201);
      await h.quote();
      const deadline = Date.now() + 2_000;
      while (receiver.received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      expect(receiver.received).toHaveLength(1);
    } finally {
      await server.close();
      await receiver.close();
    }
  });

  it("startWorker stops on request and runs onShutdown", async () => {
    const h = await startWebhookHarness();
    let shutdown = 0;
    const worker = startWorker(h.vitrina, { handleSignals: false, onShutdown: () => void shutdown++ });
    await worker.stop();
    await worker.stopped;
    expect(shutdown).toBe(1);
  });

  it("nodeHostResolver returns every address of a name", async () => {
    const addresses = await nodeHostResolver("localhost");
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.every((a) => a === "127.0.0.1" || a === "::1")).toBe(true);
  });
});
