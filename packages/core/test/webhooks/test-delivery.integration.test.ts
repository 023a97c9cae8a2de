import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  RECEIVER_SECRET,
  startReceiver,
  startWebhookHarness,
  verifyWithNodeCrypto,
} from "../support/webhook-harness.js";

describe("POST /v1/webhooks/:id/test", () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it("sends a signed webhook.test delivery to that one subscription through the outbox", async () => {
    const h = await startWebhookHarness();
    const target = await h.subscribe(receiver.url, ["quote.created"]);
    await h.subscribe(receiver.url, ["quote.created"]);
    const sent = await h.api("POST", `/v1/webhooks/${target}/test`);
    expect(sent.status).toBe(202);
    expect(sent.json.delivery_id).toMatch(/^whd_/);
    expect(await h.vitrina.outbox.dispatcher.runOnce("w")).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const delivered = receiver.received[0]!;
    const body = JSON.parse(delivered.body);
    expect(body).toMatchObject({
      type: "webhook.test",
      data: { subscription_id: target, message: "This is a test delivery from Vitrina." },
    });
    expect(
      verifyWithNodeCrypto(delivered.headers["vitrina-signature"] as string, delivered.body, RECEIVER_SECRET),
    ).toBe(true);
    const history = await h.api("GET", `/v1/webhooks/${target}/deliveries`);
    expect(history.json.data[0]).toMatchObject({
      id: sent.json.delivery_id,
      event_type: "webhook.test",
      status: "succeeded",
    });
  });

  it("refuses an unknown or disabled subscription and a read-only key", async () => {
    const h = await startWebhookHarness();
    const id = await h.subscribe(receiver.url);
    expect((await h.api("POST", "/v1/webhooks/nope/test")).status).toBe(404);
    await h.api("PATCH", `/v1/webhooks/${id}`, { enabled: false });
    const disabled = await h.api("POST", `/v1/webhooks/${id}/test`);
    expect(disabled.status).toBe(409);
    expect(disabled.json.error.code).toBe("conflict");
    const { secret } = await h.vitrina.apiKeys.issue({ userId: "owner" }, h.workspace.id, {
      name: "ro",
      scopes: ["webhooks:read"],
    });
    expect((await h.api("POST", `/v1/webhooks/${id}/test`, undefined, secret)).json.error.code).toBe(
      "insufficient_scope",
    );
  });
});
