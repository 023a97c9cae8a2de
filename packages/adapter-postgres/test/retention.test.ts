import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, silentLogger, type RetentionOptions, type Storage } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { createManualClock } from "@vitrina/core/testing";
import { fixtures } from "@vitrina/core/testing";
import { describe, expect, it, vi } from "vitest";
import { backends, openTestStorage } from "./support.js";

const DAY = 24 * 3600_000;
const storages: Array<[string, () => Promise<Storage>]> = [
  ["memory", async () => memoryStorage()],
  ...backends.map((b): [string, () => Promise<Storage>] => [b, async () => (await openTestStorage(b)).storage]),
];

/**
 * A workspace with three receivers: one answers 200 (deliveries succeed), one 410 (they fail for
 * good), one 500 (they stay pending, retrying). Events come from starting conversations.
 */
async function setup(storage: Storage, retention: RetentionOptions | false = {}) {
  const clock = createManualClock("2026-03-01T12:00:00.000Z");
  const answers: Record<string, number> = { "ok.example.cl": 200, "gone.example.cl": 410, "down.example.cl": 500 };
  const vitrina = createVitrina({
    storage,
    messaging: logMessagingTransport(silentLogger),
    secretBox: Buffer.alloc(32, 3).toString("base64"),
    clock,
    retention,
    webhooks: { fetch: async (input) => new Response("", { status: answers[new URL(String(input)).hostname] ?? 500 }) },
  });
  const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner" });
  const subscriptions: Array<{ id: string }> = [];
  for (const host of Object.keys(answers)) {
    subscriptions.push(
      await vitrina.webhooks.create(workspace.id, {
        url: `https://${host}/hook`,
        events: ["conversation.started"],
        secret: "0123456789abcdef0123456789abcdef",
      }),
    );
  }
  const { contact } = await storage.contacts.insertOrGetByPhone(fixtures().contact(workspace.id));
  const startConversations = async (n: number) => {
    for (let i = 0; i < n; i++) {
      await vitrina.conversations.start({
        workspaceId: workspace.id,
        contactId: contact.id,
        channel: "web",
        startedBy: "contact",
      });
    }
  };
  const deliver = async () => {
    while ((await vitrina.outbox.dispatcher.runOnce("test-worker")) > 0);
  };
  const events = () => storage.events.listByWorkspace(workspace.id);
  const deliveries = async () => {
    const all = [];
    for (const s of subscriptions)
      all.push(...(await vitrina.webhooks.deliveries(workspace.id, s.id, { limit: 100 })).data);
    return all;
  };
  /** Attempts recorded for finished deliveries (how many the 410 receiver got depends on the dispatcher's concurrency). */
  const finishedAttempts = async () =>
    (await deliveries()).filter((d) => d.status !== "pending").reduce((n, d) => n + d.attempts.length, 0);
  return { vitrina, clock, workspace, contact, startConversations, deliver, events, deliveries, finishedAttempts };
}

describe.each(storages)("retention on %s", (name, open) => {
  it("deletes finished deliveries, their attempts and then their events 30 days after they finished; never pending ones", async () => {
    const storage = await open();
    try {
      const s = await setup(storage, { batchSize: 2 });
      await s.startConversations(3);
      await s.deliver();
      const oldAttempts = await s.finishedAttempts();
      const statuses = (await s.deliveries()).map((d) => d.status).sort();
      expect(statuses).toEqual([
        "failed",
        "failed",
        "failed",
        "pending",
        "pending",
        "pending",
        "succeeded",
        "succeeded",
        "succeeded",
      ]);
      s.clock.advance(29 * DAY);
      await s.startConversations(1); // young: kept
      await s.deliver();
      expect(await s.vitrina.maintenance.runRetention()).toMatchObject({ deliveries: 0, attempts: 0, events: 0 });

      s.clock.advance(2 * DAY);
      const dry = await s.vitrina.maintenance.runRetention({ dryRun: true });
      // 6 old finished deliveries with one attempt each; the 500s were retried at day 29, past their
      // retry window, so they failed then and are young. The one old event that goes is the
      // `webhook_endpoint.disabled` the 410 emitted, which nobody subscribed to.
      expect(dry).toMatchObject({ deliveries: 6, attempts: oldAttempts, events: 1, leadPayloads: 0, dryRun: true });

      const report = await s.vitrina.maintenance.runRetention();
      expect(report).toMatchObject({ deliveries: 6, attempts: oldAttempts, events: 1, complete: true });
      expect((await s.deliveries()).map((d) => d.status).sort()).toEqual([
        "failed",
        "failed",
        "failed",
        "pending",
        "succeeded",
      ]);
      // Every old event still has a delivery (to the 500 receiver) that finished recently: all stay,
      // with the young `webhook_endpoint.disabled` of the 500 receiver, failing since day 0 and
      // disabled by its day-29 attempt.
      expect(await s.events()).toHaveLength(5);

      s.clock.advance(30 * DAY);
      const attemptsLeft = await s.finishedAttempts();
      expect(await s.vitrina.maintenance.runRetention()).toMatchObject({
        deliveries: 4,
        attempts: attemptsLeft,
        events: 4,
      });
      // The young event's delivery is still pending (never retried here): it and its event stay.
      expect((await s.deliveries()).map((d) => d.status)).toEqual(["pending"]);
      expect(await s.events()).toHaveLength(1);
    } finally {
      await storage.close();
    }
  });

  it("deletes events once their last delivery is gone, and events nobody subscribed to", async () => {
    const storage = await open();
    try {
      const s = await setup(storage, { batchSize: 2 });
      const down = (await storage.webhookSubscriptions.listByWorkspace(s.workspace.id)).find((x) =>
        x.url.includes("down"),
      )!;
      await storage.webhookSubscriptions.patch(down.workspaceId, down.id, {
        enabled: false,
        updatedAt: down.updatedAt,
      });
      await s.startConversations(3);
      await storage.events.append({
        id: "evt_unsubscribed",
        workspaceId: s.workspace.id,
        type: "policy.blocked",
        created: s.clock.now().toISOString(),
        data: {},
      });
      await s.deliver();
      const attempts = await s.finishedAttempts();
      s.clock.advance(31 * DAY);
      // Three conversations, the unsubscribed event, and the `webhook_endpoint.disabled` the 410 emitted.
      expect(await s.vitrina.maintenance.runRetention({ dryRun: true })).toMatchObject({
        deliveries: 6,
        attempts,
        events: 5,
      });
      expect(await s.vitrina.maintenance.runRetention()).toMatchObject({
        deliveries: 6,
        attempts,
        events: 5,
        leadPayloads: 0,
      });
      expect(await s.events()).toEqual([]);
      expect(await s.deliveries()).toEqual([]);
    } finally {
      await storage.close();
    }
  });

  it("redacts lead payloads only when configured, and stops between batches when the time budget is spent", async () => {
    const storage = await open();
    try {
      const s = await setup(storage, { deliveriesDays: null, leadPayloadsDays: 90, batchSize: 1, timeBudgetMs: 5000 });
      const f = fixtures();
      const connector = f.connector(s.workspace.id);
      await storage.connectors.insert(connector);
      const leads = [0, 1, 2].map((i) =>
        f.lead(s.workspace.id, connector.id, {
          contactId: s.contact.id,
          receivedAt: new Date(s.clock.now().getTime() + i).toISOString(),
        }),
      );
      for (const lead of leads) await storage.leads.insertIfNew(lead);
      s.clock.advance(91 * DAY);
      // Each batch reads the clock: 3 s per read spends the 5 s budget after two batches.
      const now = s.clock.now;
      s.clock.now = () => (s.clock.advance(3000), now());
      const first = await s.vitrina.maintenance.runRetention();
      s.clock.now = now;
      expect(first).toMatchObject({ leadPayloads: 1, complete: false });
      expect(await s.vitrina.maintenance.runRetention()).toMatchObject({ leadPayloads: 2, complete: true });
      for (const lead of leads) {
        const stored = await storage.leads.get(lead.id);
        expect(stored?.payload).toEqual({ redacted_at: expect.any(String) });
        expect(stored?.payloadRedactedAt).toEqual(stored?.payload.redacted_at);
        expect(stored?.opportunityId).toBe(lead.opportunityId);
      }
      const keeping = await setup(storage);
      expect(keeping.vitrina.maintenance.retention).toMatchObject({ deliveriesDays: 30, leadPayloadsDays: null });
    } finally {
      await storage.close();
    }
  });
});

describe.each(storages)("OAuth purge in retention on %s", (name, open) => {
  it("deletes expired OAuth records in batches of batchSize, and stops between batches when the time budget is spent", async () => {
    const storage = await open();
    try {
      const clock = createManualClock("2026-03-01T12:00:00.000Z");
      const vitrina = createVitrina({
        storage,
        messaging: logMessagingTransport(silentLogger),
        secretBox: Buffer.alloc(32, 3).toString("base64"),
        clock,
        oauth: { authorize: async () => new Response("no sign-in in this test", { status: 403 }) },
        retention: { deliveriesDays: null, batchSize: 2, timeBudgetMs: 5000 },
      });
      // Five clients registered and never approved: gone after a day (`unapprovedClientRetentionSeconds`).
      const f = fixtures();
      const clients = [0, 1, 2, 3, 4].map(() => ({
        id: f.id(),
        secretHash: null,
        tokenEndpointAuthMethod: "none" as const,
        redirectUris: ["http://127.0.0.1:9999/callback"],
        scopes: null,
        metadata: {},
        createdAt: clock.now().toISOString(),
        approvedAt: null,
      }));
      for (const client of clients) await storage.oauthClients.insert(client);
      clock.advance(2 * DAY);
      const batches: number[] = [];
      const purge = storage.oauthTokens.purgeExpired.bind(storage.oauthTokens);
      storage.oauthTokens.purgeExpired = async (cutoffs) => {
        const counts = await purge(cutoffs);
        batches.push(counts.clients);
        expect(cutoffs.limit).toBe(2);
        return counts;
      };
      // Each clock read spends 3 s of the 5 s budget: one batch, then the run stops and says so.
      const now = clock.now;
      clock.now = () => (clock.advance(3000), now());
      expect(await vitrina.maintenance.runRetention()).toMatchObject({ extra: { oauth: 2 }, complete: false });
      clock.now = now;
      expect(await vitrina.maintenance.runRetention()).toMatchObject({ extra: { oauth: 3 }, complete: true });
      expect(batches).toEqual([2, 2, 1]);
      for (const client of clients) expect(await storage.oauthClients.get(client.id)).toBeNull();
    } finally {
      await storage.close();
    }
  });
});

describe("retention in the worker (memory)", () => {
  it("runs when the worker starts; retention: false leaves everything", async () => {
    for (const retention of [{ intervalMs: 3600_000 }, false] as const) {
      const s = await setup(memoryStorage(), retention);
      await s.startConversations(1);
      await s.deliver();
      const finished = new Set((await s.deliveries()).filter((d) => d.status !== "pending").map((d) => d.id));
      expect(finished.size).toBe(2);
      // Only these two: the worker itself settles the pending one (now past its retry window) as it starts.
      const finishedLeft = async () => (await s.deliveries()).filter((d) => finished.has(d.id)).length;
      s.clock.advance(31 * DAY);
      const worker = s.vitrina.outbox.startWorker({ sweepIntervalMs: 3600_000 });
      if (retention === false) {
        // Let the start-up runs (0 ms timers) happen, then check nothing went.
        await new Promise((resolve) => setTimeout(resolve, 20));
        await worker.stop();
        expect(await finishedLeft()).toBe(2);
        await expect(s.vitrina.maintenance.runRetention()).rejects.toThrow(/retention is off/);
      } else {
        await vi.waitFor(async () => expect(await finishedLeft()).toBe(0));
        await worker.stop();
      }
      await s.vitrina.close();
    }
  });
});

describe("retention extra steps (memory)", () => {
  it("runs each extra purge once per run with the clock's time, and reports its count under its kind; a dry run skips them", async () => {
    const calls: string[] = [];
    const s = await setup(memoryStorage(), {
      extraSteps: [{ kind: "oauth", run: async ({ now }) => (calls.push(now.toISOString()), 3) }],
    });
    expect(await s.vitrina.maintenance.runRetention({ dryRun: true })).toMatchObject({ extra: {} });
    expect(await s.vitrina.maintenance.runRetention()).toMatchObject({ extra: { oauth: 3 }, complete: true });
    expect(calls).toEqual([s.clock.now().toISOString()]);
  });
});

describe("retention options", () => {
  it("refuses nonsense at start-up with the field at fault", () => {
    const base = {
      storage: memoryStorage(),
      messaging: logMessagingTransport(silentLogger),
      secretBox: Buffer.alloc(32, 3).toString("base64"),
    };
    expect(() => createVitrina({ ...base, retention: { deliveriesDays: 0 } })).toThrow(
      expect.objectContaining({
        code: "invalid_argument",
        reasons: [{ field: "retention.deliveriesDays", reason: "must be a positive number or null" }],
      }),
    );
    expect(() => createVitrina({ ...base, retention: { batchSize: Number.NaN } })).toThrow(
      expect.objectContaining({ reasons: [{ field: "retention.batchSize", reason: "must be a positive number" }] }),
    );
    expect(() => createVitrina({ ...base, leadIntake: { firstMessageRecovery: { leaseMs: -1 } } })).toThrow(
      expect.objectContaining({ code: "invalid_argument" }),
    );
  });
});
