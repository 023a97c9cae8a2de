import { context, trace } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleLead, startLeadHarness, type LeadHarness } from "../support/lead-harness.js";
import { startReceiver, startWebhookHarness } from "../support/webhook-harness.js";

// No SDK is registered in this file (vitest runs each file in its own module graph): the API
// answers with its no-op defaults, which must cost nothing visible.
describe("telemetry without an OpenTelemetry SDK", () => {
  let leads: LeadHarness;
  beforeAll(async () => {
    leads = await startLeadHarness();
  });
  afterAll(async () => {
    await leads.close();
  });

  it("has no SDK registered here", () => {
    expect(trace.getSpan(context.active())).toBeUndefined();
    expect(trace.getTracer("probe").startSpan("probe").isRecording()).toBe(false);
  });

  it("takes leads, rejects bad ones and delivers webhooks as usual, with no traceparent header", async () => {
    expect((await leads.send(sampleLead())).json).toMatchObject({ accepted: true, duplicate: false });
    expect((await leads.send(sampleLead(), { secret: "wrong" })).json.error.code).toBe("invalid_signature");

    const receiver = await startReceiver();
    try {
      const h = await startWebhookHarness();
      await h.subscribe(receiver.url);
      await h.quote();
      const worker = h.vitrina.outbox.startWorker();
      await expect.poll(() => receiver.received.length).toBe(1);
      await worker.stop();
      expect(receiver.received[0]!.headers.traceparent).toBeUndefined();
      await h.vitrina.close();
    } finally {
      await receiver.close();
    }
  });
});
