import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, silentLogger } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { EVENT_TYPES, eventJsonSchemas } from "@vitrina/core/webhooks";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";

// Item 8 of issue 46: the only test event was the synthetic `webhook.test`. A sample of each of the
// event types goes through the outbox to one subscription, valid against the JSON Schema receivers get.
async function setUp() {
  const vitrina = createVitrina({
    storage: memoryStorage(),
    messaging: logMessagingTransport(silentLogger),
    secretBox: Buffer.alloc(32, 6).toString("base64"),
    logger: silentLogger,
    webhooks: { allowInsecureLoopback: true },
  });
  const workspace = await vitrina.workspaces.create({ name: "Samples", ownerUserId: "owner" });
  // Chose one type only: a sample of any type still goes to it (trying a receiver before subscribing it to more).
  const subscription = await vitrina.webhooks.create(workspace.id, {
    url: "http://127.0.0.1:9/hooks",
    events: ["quote.created"],
    secret: "whsec_samples_0123456789abcdef",
  });
  return { vitrina, workspaceId: workspace.id, subscriptionId: subscription.id };
}

describe("sample events for trying a receiver", () => {
  it("each event type has a realistic sample, valid against its published JSON Schema, queued for that subscription only", async () => {
    const { vitrina, workspaceId, subscriptionId } = await setUp();
    const ajv = new Ajv2020({ strict: false });
    const schemas = eventJsonSchemas();
    for (const type of EVENT_TYPES) {
      const queued = await vitrina.sendTestDelivery(workspaceId, subscriptionId, type);
      const event = await vitrina.storage.events.get(queued.event_id);
      const envelope = { id: event!.id, type: event!.type, created: event!.created, data: event!.data };
      const validate = ajv.compile(schemas[type]);
      expect(validate(envelope), `${type}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(JSON.stringify(event!.data)).toMatch(/sample_/);
    }
    const page = await vitrina.webhooks.deliveries(workspaceId, subscriptionId, { limit: 20 });
    expect(page.data.map((d) => d.event_type).sort()).toEqual([...EVENT_TYPES].sort());
    expect(page.data.every((d) => d.status === "pending")).toBe(true);
  });

  it("an unknown type is refused naming the field; without a type it is the webhook.test ping", async () => {
    const { vitrina, workspaceId, subscriptionId } = await setUp();
    await expect(vitrina.sendTestDelivery(workspaceId, subscriptionId, "lead.created")).rejects.toMatchObject({
      code: "invalid_payload",
      reasons: [{ field: "type" }],
    });
    const ping = await vitrina.sendTestDelivery(workspaceId, subscriptionId);
    expect((await vitrina.storage.events.get(ping.event_id))!.type).toBe("webhook.test");
  });
});
