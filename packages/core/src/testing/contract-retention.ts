import type { ContractContext } from "./contract-section.js";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { it } from "./contract-test.js";
import type { EventRecord } from "../ports/records.js";
import type { Storage } from "../ports/storage.js";
import type { WebhookDeliveryRecord } from "../ports/webhook-records.js";
import { fixtures } from "./fixtures.js";
import { webhookFixtures } from "./webhook-fixtures.js";

const DAY = 24 * 3600_000;

/**
 * Retention and the first message's send lease. Both select across workspaces, so each block runs
 * on a storage of its own (`create` is called once per block) that no other test writes to.
 */
export function retentionContract({ create }: ContractContext): void {
  const f = fixtures();
  const w = webhookFixtures();
  let storage: Storage;
  beforeAll(async () => {
    storage = await create();
  });
  afterAll(async () => {
    await storage?.close();
  });

  const seed = async () => {
    const workspace = f.workspace();
    await storage.workspaces.insert(workspace);
    const connector = f.connector(workspace.id);
    await storage.connectors.insert(connector);
    const { contact } = await storage.contacts.insertOrGetByPhone(f.contact(workspace.id));
    return { workspaceId: workspace.id, connectorId: connector.id, contactId: contact.id };
  };

  describe("retention", () => {
    it("deletes finished deliveries (attempts first) and then events no delivery references, in batches, never pending ones", async () => {
      const { workspaceId } = await seed();
      const event = (createdOffset: number): EventRecord => ({
        id: `evt_${f.id()}`,
        workspaceId,
        type: "order.confirmed",
        created: f.at(createdOffset),
        data: { n: createdOffset },
      });
      const subscription = w.subscription(workspaceId);
      await storage.webhookSubscriptions.insert(subscription);
      const deliveryOf = async (e: EventRecord, over: Partial<WebhookDeliveryRecord>) => {
        const delivery = w.delivery(workspaceId, subscription.id, { eventId: e.id, createdAt: e.created, ...over });
        await storage.webhookDeliveries.insert(delivery);
        for (const number of [1, 2]) {
          await storage.webhookAttempts.insert({
            id: f.id(),
            deliveryId: delivery.id,
            number,
            attemptedAt: e.created,
            statusCode: 500,
            durationMs: 3,
            error: "500",
          });
        }
        return delivery;
      };
      // Old and finished: succeeded at day 1, failed for good at day 2.
      const [e1, e2, e3, e4, e5] = [event(0), event(0), event(0), event(0), event(0)];
      const succeeded = await deliveryOf(e1, { status: "succeeded", deliveredAt: f.at(DAY), nextAttemptAt: f.at(0) });
      const failed = await deliveryOf(e2, { status: "failed", nextAttemptAt: f.at(2 * DAY) });
      // Old but still pending: its event and attempts stay.
      const pending = await deliveryOf(e3, { status: "pending", nextAttemptAt: f.at(40 * DAY) });
      // Old event, delivery finished recently: stays until that delivery is old too.
      const recent = await deliveryOf(e4, { status: "succeeded", deliveredAt: f.at(20 * DAY) });
      for (const e of [e1, e2, e3, e4, e5]) await storage.events.append(e);
      const fresh = event(25 * DAY);
      await storage.events.append(fresh);
      const before = f.at(10 * DAY);

      expect(
        await storage.retention.countEligible({
          deliveriesFinishedBefore: before,
          leadsReceivedBefore: null,
          messagesCreatedBefore: null,
        }),
      ).toEqual({
        attempts: 4,
        deliveries: 2,
        events: 3,
        leadPayloads: 0,
        messageTexts: 0,
      });
      expect(await storage.retention.purgeFinishedDeliveries(before, 1)).toEqual({ deliveries: 1, attempts: 2 });
      expect(await storage.webhookDeliveries.get(workspaceId, succeeded.id)).toBeNull();
      expect(await storage.webhookDeliveries.get(workspaceId, failed.id)).not.toBeNull();
      expect(await storage.retention.purgeFinishedDeliveries(before, 10)).toEqual({ deliveries: 1, attempts: 2 });
      expect(await storage.retention.purgeFinishedDeliveries(before, 10)).toEqual({ deliveries: 0, attempts: 0 });
      expect(await storage.webhookAttempts.listByDeliveries([succeeded.id, failed.id])).toEqual([]);
      expect((await storage.webhookAttempts.listByDeliveries([pending.id, recent.id])).length).toBe(4);

      expect(await storage.retention.purgeUndeliveredEvents(before, 2)).toBe(2);
      expect(await storage.retention.purgeUndeliveredEvents(before, 2)).toBe(1);
      expect(await storage.retention.purgeUndeliveredEvents(before, 2)).toBe(0);
      for (const gone of [e1, e2, e5]) expect(await storage.events.get(gone.id)).toBeNull();
      for (const kept of [e3, e4, fresh]) expect(await storage.events.get(kept.id)).toEqual(kept);
      expect(await storage.webhookDeliveries.get(workspaceId, pending.id)).toEqual(pending);
      expect(
        await storage.retention.countEligible({
          deliveriesFinishedBefore: before,
          leadsReceivedBefore: null,
          messagesCreatedBefore: null,
        }),
      ).toEqual({
        attempts: 0,
        deliveries: 0,
        events: 0,
        leadPayloads: 0,
        messageTexts: 0,
      });
    });

    it("redacts old lead payloads once, keeping the lead row", async () => {
      const { workspaceId, connectorId, contactId } = await seed();
      const old = f.lead(workspaceId, connectorId, { contactId, receivedAt: f.at(-400 * DAY) });
      const young = f.lead(workspaceId, connectorId, { contactId, receivedAt: f.at(0) });
      for (const lead of [old, young]) await storage.leads.insertIfNew(lead);
      const before = f.at(-300 * DAY);
      expect(
        (
          await storage.retention.countEligible({
            deliveriesFinishedBefore: null,
            leadsReceivedBefore: before,
            messagesCreatedBefore: null,
          })
        ).leadPayloads,
      ).toBe(1);
      expect(await storage.retention.redactLeadPayloads(before, 10, f.at(5))).toBe(1);
      expect(await storage.retention.redactLeadPayloads(before, 10, f.at(6))).toBe(0);
      expect(await storage.leads.get(old.id)).toEqual({
        ...old,
        payload: { redacted_at: f.at(5) },
        payloadRedactedAt: f.at(5),
      });
      expect(await storage.leads.get(young.id)).toEqual(young);
    });
  });

  describe("first message send lease", () => {
    it("claims a never-handed message once, fails it only while in flight, and lists what is unsettled", async () => {
      const { workspaceId, connectorId, contactId } = await seed();
      const message = async (over: Parameters<typeof f.outbound>[3]) => {
        const lead = f.lead(workspaceId, connectorId, { contactId });
        await storage.leads.insertIfNew(lead);
        const outbound = f.outbound(workspaceId, lead.id, contactId, {
          reason: "waiting for the messaging provider",
          ...over,
        });
        await storage.outbound.insert(outbound);
        return outbound;
      };
      const waiting = await message({ createdAt: f.at(1000) });
      const held = await message({
        createdAt: f.at(0),
        handedToProviderAt: f.at(1),
        providerAnsweredAt: f.at(2),
        reason: "held by the messaging provider",
      });
      const sent = await message({
        createdAt: f.at(0),
        status: "sent",
        handedToProviderAt: f.at(1),
        providerAnsweredAt: f.at(2),
      });
      const newer = await message({ createdAt: f.at(9000) });
      expect(await storage.outbound.listUnsettled(f.at(5000), 10)).toEqual([waiting]);

      const handing = {
        status: "queued" as const,
        reason: "handed to the messaging provider",
        handedToProviderAt: f.at(2000),
        updatedAt: f.at(2000),
      };
      const claimed = { ...waiting, ...handing };
      expect(await storage.outbound.claimUnsent(waiting.id, handing)).toEqual(claimed);
      expect(await storage.outbound.claimUnsent(waiting.id, { ...handing, handedToProviderAt: f.at(2001) })).toBeNull();
      for (const settled of [held, sent]) expect(await storage.outbound.claimUnsent(settled.id, handing)).toBeNull();
      expect(await storage.outbound.findByLeadEvent(waiting.leadEventId)).toEqual(claimed);
      // Handed over at 2000: unsettled once the lease cutoff reaches it, oldest first.
      expect(await storage.outbound.listUnsettled(f.at(1999), 10)).toEqual([]);
      expect(await storage.outbound.listUnsettled(f.at(10_000), 10)).toEqual([claimed, newer]);
      expect(await storage.outbound.listUnsettled(f.at(10_000), 1)).toEqual([claimed]);

      expect(await storage.outbound.failInFlight(newer.id, "x", f.at(3))).toBe(false);
      expect(await storage.outbound.failInFlight(held.id, "x", f.at(3))).toBe(false);
      expect(await storage.outbound.failInFlight(waiting.id, "outcome unknown", f.at(3000))).toBe(true);
      expect(await storage.outbound.failInFlight(waiting.id, "again", f.at(3001))).toBe(false);
      expect(await storage.outbound.findByLeadEvent(waiting.leadEventId)).toEqual({
        ...claimed,
        status: "failed",
        reason: "outcome unknown",
        updatedAt: f.at(3000),
      });

      const blocked = {
        status: "blocked" as const,
        reason: "opted out",
        handedToProviderAt: null,
        updatedAt: f.at(9500),
      };
      expect(await storage.outbound.claimUnsent(newer.id, blocked)).toEqual({ ...newer, ...blocked });
      expect(await storage.outbound.listUnsettled(f.at(10_000), 10)).toEqual([]);
    });
  });
}
