import type { ContractContext } from "./contract-section.js";
import { expect } from "vitest";
import { it } from "./contract-test.js";
import type { Storage } from "../ports/storage.js";
import { fannedOutDelivery } from "../events/fanned-out-delivery.js";
import { fixtures } from "./fixtures.js";
import { webhookFixtures } from "./webhook-fixtures.js";

/** Contract tests for quotes, orders, payments, API keys, subscriptions and the delivery outbox. */
export function webhookContract({ storage: getStorage, create }: ContractContext): void {
  const f = fixtures();
  const w = webhookFixtures();
  const seed = async () => {
    const workspace = f.workspace();
    const storage = getStorage();
    await storage.workspaces.insert(workspace);
    const { contact } = await storage.contacts.insertOrGetByPhone(f.contact(workspace.id));
    return { storage, workspaceId: workspace.id, contactId: contact.id };
  };

  it("stores quotes, orders (one per quote) and payments (unique provider reference)", async () => {
    const { storage, workspaceId, contactId } = await seed();
    const quote = w.quote(workspaceId, contactId);
    await storage.quotes.insert(quote);
    expect(await storage.quotes.get(workspaceId, quote.id)).toEqual(quote);
    expect(await storage.quotes.get(f.id(), quote.id)).toBeNull();
    const accepted = { ...quote, status: "accepted" as const, acceptedAt: f.at(10) };
    expect(await storage.quotes.update(accepted)).toBe(true);
    expect(await storage.quotes.get(workspaceId, quote.id)).toEqual(accepted);

    const order = w.order(workspaceId, contactId, { quoteId: quote.id, erpReference: "SAP-1" });
    await storage.orders.insert(order);
    expect(await storage.orders.get(workspaceId, order.id)).toEqual(order);
    await expect(storage.orders.insert(w.order(workspaceId, contactId, { quoteId: quote.id }))).rejects.toMatchObject({
      code: "conflict",
    });
    const noQuote = w.order(workspaceId, contactId, { quoteId: null });
    await storage.orders.insert(noQuote);
    await storage.orders.insert(w.order(workspaceId, contactId, { quoteId: null }));
    expect(await storage.orders.get(workspaceId, noQuote.id)).toEqual(noQuote);

    const later = w.payment(workspaceId, order.id, contactId, { receivedAt: f.at(2000), amount: 1000.5 });
    const earlier = w.payment(workspaceId, order.id, contactId, { receivedAt: f.at(1000), providerReference: null });
    await storage.payments.insert(later);
    await storage.payments.insert(earlier);
    await expect(
      storage.payments.insert(
        w.payment(workspaceId, order.id, contactId, { providerReference: later.providerReference }),
      ),
    ).rejects.toMatchObject({ code: "conflict" });
    expect(await storage.payments.listByOrder(order.id)).toEqual([earlier, later]);
  });

  it("stores API keys by hash, lists and revokes them", async () => {
    const { storage, workspaceId } = await seed();
    const key = w.apiKey(workspaceId);
    const second = w.apiKey(workspaceId, { createdAt: f.at(5), scopes: [] });
    await storage.apiKeys.insert(key);
    await storage.apiKeys.insert(second);
    expect(await storage.apiKeys.findByHash(key.hash)).toEqual(key);
    expect(await storage.apiKeys.findByHash("0".repeat(64))).toBeNull();
    expect(await storage.apiKeys.get(workspaceId, key.id)).toEqual(key);
    expect(await storage.apiKeys.get(f.id(), key.id)).toBeNull();
    expect(await storage.apiKeys.listByWorkspace(workspaceId)).toEqual([key, second]);
    const revoked = await storage.apiKeys.revoke(workspaceId, key.id, f.at(9));
    expect(revoked).toEqual({ ...key, revokedAt: f.at(9) });
    expect(await storage.apiKeys.revoke(workspaceId, key.id, f.at(99))).toEqual(revoked);
    expect(await storage.apiKeys.findByHash(key.hash)).toEqual(revoked);
    expect(await storage.apiKeys.revoke(workspaceId, f.id(), f.at())).toBeNull();
  });

  it("stores subscriptions, finds the enabled ones for an event type, updates and deletes", async () => {
    const { storage, workspaceId } = await seed();
    const orders = w.subscription(workspaceId);
    const quotes = w.subscription(workspaceId, { events: ["quote.created"], createdAt: f.at(1) });
    const off = w.subscription(workspaceId, { enabled: false, disabledReason: "gone", createdAt: f.at(2) });
    for (const s of [orders, quotes, off]) await storage.webhookSubscriptions.insert(s);
    expect(await storage.webhookSubscriptions.get(workspaceId, orders.id)).toEqual(orders);
    expect(await storage.webhookSubscriptions.get(f.id(), orders.id)).toBeNull();
    expect(await storage.webhookSubscriptions.listByWorkspace(workspaceId)).toEqual([orders, quotes, off]);
    expect(await storage.webhookSubscriptions.listEnabledForEvent(workspaceId, "order.confirmed")).toEqual([orders]);
    expect(await storage.webhookSubscriptions.listEnabledForEvent(workspaceId, "policy.blocked")).toEqual([]);
    const changed = {
      ...quotes,
      url: "https://x.example/h",
      events: ["quote.created", "quote.accepted"],
      updatedAt: f.at(7),
    };
    // A patch writes only what it names and returns the row as stored.
    expect(
      await storage.webhookSubscriptions.patch(workspaceId, quotes.id, {
        url: changed.url,
        events: changed.events,
        updatedAt: changed.updatedAt,
      }),
    ).toEqual(changed);
    expect(await storage.webhookSubscriptions.listEnabledForEvent(workspaceId, "quote.accepted")).toEqual([changed]);
    const disabled = { ...changed, enabled: false, disabledReason: "receiver answered 410 Gone", updatedAt: f.at(8) };
    const disable = {
      enabled: false,
      disabledReason: disabled.disabledReason,
      onlyIfEnabled: true,
      updatedAt: f.at(8),
    };
    expect(await storage.webhookSubscriptions.patch(workspaceId, quotes.id, disable)).toEqual(disabled);
    // onlyIfEnabled: a second disable changes nothing.
    expect(
      await storage.webhookSubscriptions.patch(workspaceId, quotes.id, { ...disable, updatedAt: f.at(9) }),
    ).toBeNull();
    const enabled = { ...disabled, enabled: true, disabledReason: null, sealedSecret: "v1.new", updatedAt: f.at(10) };
    expect(
      await storage.webhookSubscriptions.patch(workspaceId, quotes.id, {
        enabled: true,
        disabledReason: null,
        sealedSecret: "v1.new",
        updatedAt: f.at(10),
      }),
    ).toEqual(enabled);
    expect(await storage.webhookSubscriptions.get(workspaceId, quotes.id)).toEqual(enabled);
    expect(
      await storage.webhookSubscriptions.patch(f.id(), quotes.id, { url: "https://y.example/", updatedAt: f.at(11) }),
    ).toBeNull();
    expect(await storage.webhookSubscriptions.delete(f.id(), quotes.id)).toBe(false);
    expect(await storage.webhookSubscriptions.delete(workspaceId, quotes.id)).toBe(true);
    expect(await storage.webhookSubscriptions.get(workspaceId, quotes.id)).toBeNull();
  });

  it("claims due deliveries with a lease, completes only under the lease, reschedules", async () => {
    const { storage, workspaceId } = await seed();
    const sub = w.subscription(workspaceId);
    await storage.webhookSubscriptions.insert(sub);
    const due = w.delivery(workspaceId, sub.id, { nextAttemptAt: f.at(0) });
    const later = w.delivery(workspaceId, sub.id, { nextAttemptAt: f.at(60_000) });
    const done = w.delivery(workspaceId, sub.id, { status: "succeeded", deliveredAt: f.at(1) });
    for (const d of [due, later, done]) await storage.webhookDeliveries.insert(d);
    await expect(
      storage.webhookDeliveries.insert({ ...w.delivery(workspaceId, sub.id), eventId: due.eventId }),
    ).rejects.toMatchObject({ code: "conflict" });

    const claimed = await storage.webhookDeliveries.claimDueDeliveries(f.at(10), 10, f.at(30_000), "w1");
    // Its event was never stored: the claim says so rather than dropping the delivery.
    expect(claimed).toEqual([
      { delivery: { ...due, leaseUntil: f.at(30_000), leasedBy: "w1" }, event: null, subscription: sub },
    ]);
    expect(await storage.webhookDeliveries.get(workspaceId, due.id)).toEqual(claimed[0]!.delivery);
    // Leased: nobody else gets it until the lease expires, then another worker does.
    expect(await storage.webhookDeliveries.claimDueDeliveries(f.at(20), 10, f.at(40_000), "w2")).toEqual([]);
    const taken = await storage.webhookDeliveries.claimDueDeliveries(f.at(30_000), 1, f.at(90_000), "w2");
    expect(taken.map(({ delivery }) => [delivery.id, delivery.leasedBy])).toEqual([[due.id, "w2"]]);
    const outcome = {
      status: "succeeded" as const,
      attemptCount: 1,
      nextAttemptAt: f.at(30_000),
      lastError: null,
      deliveredAt: f.at(30_001),
    };
    const complete = (workerId: string, leaseUntil: string) => ({ deliveryId: due.id, workerId, leaseUntil, outcome });
    expect(await storage.webhookDeliveries.completeClaims([complete("w1", f.at(30_000))])).toEqual([false]);
    expect(await storage.webhookDeliveries.completeClaims([complete("w2", f.at(90_000))])).toEqual([true]);
    expect(await storage.webhookDeliveries.get(workspaceId, due.id)).toEqual({
      ...due,
      ...outcome,
      leaseUntil: null,
      leasedBy: null,
    });

    expect(await storage.webhookDeliveries.reschedule(workspaceId, due.id, f.at(50_000), f.at(99_000))).toMatchObject({
      status: "pending",
      nextAttemptAt: f.at(50_000),
      retryUntil: f.at(99_000),
    });
    await storage.webhookDeliveries.claimDueDeliveries(f.at(50_000), 1, f.at(80_000), "w3");
    expect(await storage.webhookDeliveries.reschedule(workspaceId, due.id, f.at(60_000), f.at(99_000))).toBeNull();
    expect(await storage.webhookDeliveries.reschedule(f.id(), done.id, f.at(60_000), f.at(99_000))).toBeNull();
  });

  it("gives a claim back unattempted: its lease cleared, every other field as it was, due again for any worker", async () => {
    const { storage, workspaceId } = await seed();
    const sub = w.subscription(workspaceId);
    await storage.webhookSubscriptions.insert(sub);
    // A retry: two attempts behind it, the last one's error kept.
    const retry = w.delivery(workspaceId, sub.id, { nextAttemptAt: f.at(0), attemptCount: 2, lastError: "HTTP 500" });
    await storage.webhookDeliveries.insert(retry);
    const [claimed] = await storage.webhookDeliveries.claimDueDeliveries(f.at(10), 1, f.at(30_000), "w1");
    const { status, attemptCount, nextAttemptAt, lastError, deliveredAt } = claimed!.delivery;
    const unchanged = { status, attemptCount, nextAttemptAt, lastError, deliveredAt };
    const subscriptionBefore = await storage.webhookSubscriptions.get(workspaceId, sub.id);
    expect(
      await storage.webhookDeliveries.completeClaims([
        { deliveryId: retry.id, workerId: "w1", leaseUntil: f.at(30_000), outcome: unchanged },
      ]),
    ).toEqual([true]);
    expect(await storage.webhookDeliveries.get(workspaceId, retry.id)).toEqual({
      ...retry,
      leaseUntil: null,
      leasedBy: null,
    });
    expect(await storage.webhookAttempts.listByDeliveries([retry.id])).toEqual([]);
    // No attempt, so the endpoint's health is as it was.
    expect(await storage.webhookSubscriptions.get(workspaceId, sub.id)).toEqual(subscriptionBefore);
    const again = await storage.webhookDeliveries.claimDueDeliveries(f.at(20), 1, f.at(40_000), "w2");
    expect(again.map(({ delivery }) => [delivery.id, delivery.leasedBy])).toEqual([[retry.id, "w2"]]);
  });

  it("never hands the same delivery to two concurrent claimers", async () => {
    const { storage, workspaceId } = await seed();
    const sub = w.subscription(workspaceId);
    await storage.webhookSubscriptions.insert(sub);
    const ids = [];
    for (let i = 0; i < 30; i++) {
      const d = w.delivery(workspaceId, sub.id, { nextAttemptAt: f.at(i) });
      ids.push(d.id);
      await storage.webhookDeliveries.insert(d);
    }
    const batches = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        storage.webhookDeliveries.claimDueDeliveries(f.at(100), 7, f.at(60_000), `w${i}`),
      ),
    );
    const claimed = batches.flat().map(({ delivery }) => delivery.id);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.sort()).toEqual([...ids].sort());
  });

  it("keeps each subscription within a per-subscription cap while claiming, passing over capped rows", async () => {
    const { storage, workspaceId } = await seed();
    const [busy, quiet] = [w.subscription(workspaceId), w.subscription(workspaceId)];
    for (const sub of [busy, quiet]) await storage.webhookSubscriptions.insert(sub);
    // The busy subscription's rows are all due first: without a cap they would fill every claim.
    const busyRows = [0, 1, 2, 3, 4].map((i) => w.delivery(workspaceId, busy.id, { nextAttemptAt: f.at(i) }));
    const quietRows = [10, 11, 12].map((i) => w.delivery(workspaceId, quiet.id, { nextAttemptAt: f.at(i) }));
    for (const d of [...busyRows, ...quietRows]) await storage.webhookDeliveries.insert(d);
    const claim = async (limit: number, held: Record<string, number>, max = 2) =>
      (await storage.webhookDeliveries.claimDueDeliveries(f.at(100), limit, f.at(60_000), "w", { max, held })).map(
        ({ delivery }) => delivery.id,
      );

    expect(await claim(4, {})).toEqual([busyRows[0]!.id, busyRows[1]!.id, quietRows[0]!.id, quietRows[1]!.id]);
    // What the claimer holds counts: busy is at its cap, quiet has room for one more.
    expect(await claim(10, { [busy.id]: 2, [quiet.id]: 1 })).toEqual([quietRows[2]!.id]);
    expect(await claim(10, { [busy.id]: 2, [quiet.id]: 2 })).toEqual([]);
    expect(await claim(10, { [busy.id]: 1 }, 3)).toEqual([busyRows[2]!.id, busyRows[3]!.id]);
    expect(
      (await storage.webhookDeliveries.claimDueDeliveries(f.at(100), 10, f.at(60_000), "w")).map(
        ({ delivery }) => delivery.id,
      ),
    ).toEqual([busyRows[4]!.id]);
  });

  it("reports the outbox depth and the longest-overdue pending delivery", async () => {
    // The stats span every workspace, so the test has a storage of its own and exact figures.
    const storage = await create();
    try {
      const workspace = f.workspace();
      await storage.workspaces.insert(workspace);
      const workspaceId = workspace.id;
      const sub = w.subscription(workspaceId);
      await storage.webhookSubscriptions.insert(sub);
      const now = f.at();
      expect(await storage.webhookDeliveries.outboxStats(now)).toEqual({ pending: 0, oldestDueAt: null });
      const oldest = w.delivery(workspaceId, sub.id, { nextAttemptAt: f.at(-60_000), createdAt: f.at(5) });
      const rows = [
        oldest,
        w.delivery(workspaceId, sub.id, {
          nextAttemptAt: f.at(-1000),
          leaseUntil: f.at(1000),
          leasedBy: "w1",
        }),
        w.delivery(workspaceId, sub.id, { nextAttemptAt: f.at(30_000) }),
        w.delivery(workspaceId, sub.id, {
          status: "succeeded",
          nextAttemptAt: f.at(-90_000),
          deliveredAt: now,
        }),
        w.delivery(workspaceId, sub.id, { status: "failed", nextAttemptAt: f.at(-90_000) }),
      ];
      for (const d of rows) await storage.webhookDeliveries.insert(d);
      const after = await storage.webhookDeliveries.outboxStats(now);
      // Three pending (due, leased, waiting for a retry); finished ones count for neither figure.
      expect(after).toEqual({ pending: 3, oldestDueAt: oldest.nextAttemptAt });
      await storage.webhookDeliveries.completeClaims([
        {
          deliveryId: rows[1]!.id,
          workerId: "w1",
          leaseUntil: rows[1]!.leaseUntil!,
          outcome: {
            status: "succeeded",
            attemptCount: 1,
            nextAttemptAt: rows[1]!.nextAttemptAt,
            lastError: null,
            deliveredAt: now,
          },
        },
      ]);
      expect(await storage.webhookDeliveries.outboxStats(now)).toEqual({
        pending: 2,
        oldestDueAt: oldest.nextAttemptAt,
      });
      expect((await storage.webhookDeliveries.outboxStats(f.at(-120_000))).oldestDueAt).toBeNull();
    } finally {
      await storage.close();
    }
  });

  it("pages deliveries newest first and lists their attempts in order", async () => {
    const { storage, workspaceId } = await seed();
    const sub = w.subscription(workspaceId);
    await storage.webhookSubscriptions.insert(sub);
    const rows = [0, 1, 2, 3, 4].map((i) => w.delivery(workspaceId, sub.id, { createdAt: f.at(i * 1000) }));
    for (const d of rows) await storage.webhookDeliveries.insert(d);
    const [d0, d1, d2, d3, d4] = rows;
    const page1 = await storage.webhookDeliveries.listBySubscription(sub.id, { limit: 2 });
    expect(page1).toEqual([d4, d3]);
    expect(await storage.webhookDeliveries.listBySubscription(sub.id, { limit: 2, startingAfter: d3!.id })).toEqual([
      d2,
      d1,
    ]);
    expect(await storage.webhookDeliveries.listBySubscription(sub.id, { limit: 9, startingAfter: d1!.id })).toEqual([
      d0,
    ]);
    expect(await storage.webhookDeliveries.listBySubscription(sub.id, { limit: 9, startingAfter: f.id() })).toEqual([]);

    const attempt = (deliveryId: string, number: number) => ({
      id: f.id(),
      deliveryId,
      number,
      attemptedAt: f.at(number * 10),
      statusCode: number === 3 ? 200 : null,
      durationMs: 12.5,
      error: number === 3 ? null : "connect ECONNREFUSED",
      // What the receiver answered, kept as text (non-ASCII included); null when nothing came.
      responseBodyPrefix: number === 3 ? '{"received":true,"note":"ünïcode ✓ 😀"}' : null,
    });
    const attempts = [attempt(d0!.id, 2), attempt(d0!.id, 1), attempt(d0!.id, 3), attempt(d1!.id, 1)];
    for (const a of attempts) await storage.webhookAttempts.insert(a);
    const listed = await storage.webhookAttempts.listByDeliveries([d0!.id]);
    expect(listed).toEqual([attempts[1], attempts[0], attempts[2]]);
    expect(await storage.webhookAttempts.listByDeliveries([])).toEqual([]);
  });

  it("reads an appended event back by id", async () => {
    const { storage, workspaceId } = await seed();
    const event = {
      id: `evt_${f.id()}`,
      workspaceId,
      type: "order.confirmed",
      created: f.at(3),
      data: { order_id: "o1", total: 4736.5 },
    };
    await storage.events.append(event);
    expect(await storage.events.get(event.id)).toEqual(event);
    expect(await storage.events.get("evt_missing")).toBeNull();
  });

  it("appends an event and writes one pending delivery per subscriber in one step, oldest subscription first", async () => {
    const { storage, workspaceId } = await seed();
    const older = w.subscription(workspaceId, { events: ["order.confirmed"], createdAt: f.at(1) });
    const newer = w.subscription(workspaceId, { events: ["order.confirmed", "quote.created"], createdAt: f.at(2) });
    const disabled = w.subscription(workspaceId, { events: ["order.confirmed"], enabled: false });
    const otherType = w.subscription(workspaceId, { events: ["quote.created"] });
    for (const subscription of [newer, disabled, older, otherType])
      await storage.webhookSubscriptions.insert(subscription);
    const event = w.event(workspaceId);
    const retryUntil = f.at(86_400_000);
    const deliveries = await storage.events.appendAndFanOut(event, { retryUntil });
    expect(deliveries.map((d) => d.subscriptionId)).toEqual([older.id, newer.id]);
    for (const delivery of deliveries) {
      expect(delivery.id).toMatch(/^whd_[0-9a-f]{32}$/);
      expect(delivery).toEqual(fannedOutDelivery(event, delivery.subscriptionId, delivery.id, retryUntil));
      expect(await storage.webhookDeliveries.get(workspaceId, delivery.id)).toEqual(delivery);
    }
    expect(deliveries[0]!.id).not.toBe(deliveries[1]!.id);
    expect(await storage.events.get(event.id)).toEqual(event);
    // No subscriber: the event alone.
    const quiet = w.event(workspaceId, { type: "lead.received" });
    expect(await storage.events.appendAndFanOut(quiet, { retryUntil })).toEqual([]);
    expect(await storage.events.get(quiet.id)).toEqual(quiet);
  });

  it("completes claims and records their attempts in one step, and writes neither for a lost lease", async () => {
    const { storage, workspaceId } = await seed();
    const subscription = w.subscription(workspaceId);
    await storage.webhookSubscriptions.insert(subscription);
    // Stored already leased, as a claim leaves them (a claim here could take another test's rows).
    const leased = (workerId: string) =>
      w.delivery(workspaceId, subscription.id, { leasedBy: workerId, leaseUntil: f.at(30_000) });
    const [first, lost, second, retried] = [leased("w1"), leased("w9"), leased("w1"), leased("w2")];
    for (const d of [first, lost, second, retried]) await storage.webhookDeliveries.insert(d);
    const succeeded = (d: typeof first) => ({
      status: "succeeded" as const,
      attemptCount: 1,
      nextAttemptAt: d.nextAttemptAt,
      lastError: null,
      deliveredAt: f.at(20),
    });
    const failedOnce = {
      status: "pending" as const,
      attemptCount: 1,
      nextAttemptAt: f.at(60_000),
      lastError: "HTTP 500",
      deliveredAt: null,
    };
    const attemptOf = (d: typeof first, statusCode: number, error: string | null) => ({
      id: f.id(),
      deliveryId: d.id,
      number: 1,
      attemptedAt: f.at(15),
      statusCode,
      durationMs: 12.5,
      error,
      responseBodyPrefix: error === null ? "" : 'it\'s "broken", {really}\\ ✓',
    });
    const attempts = {
      first: attemptOf(first, 204, null),
      lost: attemptOf(lost, 204, null),
      second: attemptOf(second, 204, null),
      retried: attemptOf(retried, 500, "HTTP 500"),
    };
    const leaseUntil = f.at(30_000);
    const recorded = await storage.webhookDeliveries.completeClaims([
      { deliveryId: first.id, workerId: "w1", leaseUntil, outcome: succeeded(first), attempt: attempts.first },
      // w1 no longer holds this one (w9 does): neither its outcome nor its attempt is written.
      { deliveryId: lost.id, workerId: "w1", leaseUntil, outcome: succeeded(lost), attempt: attempts.lost },
      // Ended without an attempt (its subscription was gone): the outcome alone.
      {
        deliveryId: second.id,
        workerId: "w1",
        leaseUntil,
        outcome: { ...succeeded(second), status: "failed" as const },
      },
      { deliveryId: retried.id, workerId: "w2", leaseUntil, outcome: failedOnce, attempt: attempts.retried },
    ]);
    expect(recorded).toEqual([true, false, true, true]);
    expect(await storage.webhookAttempts.listByDeliveries([first.id, lost.id, second.id, retried.id])).toEqual(
      [attempts.first, attempts.retried].sort((a, b) => (a.deliveryId < b.deliveryId ? -1 : 1)),
    );
    expect(await storage.webhookDeliveries.get(workspaceId, first.id)).toEqual({
      ...first,
      ...succeeded(first),
      leasedBy: null,
      leaseUntil: null,
    });
    expect(await storage.webhookDeliveries.get(workspaceId, lost.id)).toEqual(lost);
    expect(await storage.webhookDeliveries.get(workspaceId, second.id)).toMatchObject({ status: "failed" });
    expect(await storage.webhookDeliveries.get(workspaceId, retried.id)).toEqual({
      ...retried,
      ...failedOnce,
      leasedBy: null,
      leaseUntil: null,
    });
    expect(await storage.webhookDeliveries.completeClaims([])).toEqual([]);
  });

  it("claims each delivery with its event and subscription, and null for ones that no longer exist", async () => {
    const { storage, workspaceId } = await seed();
    const subscription = w.subscription(workspaceId);
    await storage.webhookSubscriptions.insert(subscription);
    const event = w.event(workspaceId);
    await storage.events.append(event);
    // Due long before any other test's rows, so this claim takes exactly these.
    const longAgo = (ms: number) => f.at(-5e11 + ms);
    const other = w.subscription(workspaceId);
    await storage.webhookSubscriptions.insert(other);
    const [second, third] = [w.event(workspaceId), w.event(workspaceId)];
    for (const e of [second, third]) await storage.events.append(e);
    const found = w.delivery(workspaceId, subscription.id, { eventId: event.id, nextAttemptAt: longAgo(0) });
    const orphan = w.delivery(workspaceId, f.id(), { eventId: `evt_${f.id()}`, nextAttemptAt: longAgo(1) });
    // Several rows of one subscription, another's between them: each comes with its own subscription.
    const again = w.delivery(workspaceId, subscription.id, { eventId: second.id, nextAttemptAt: longAgo(2) });
    const elsewhere = w.delivery(workspaceId, other.id, { eventId: second.id, nextAttemptAt: longAgo(3) });
    const last = w.delivery(workspaceId, subscription.id, { eventId: third.id, nextAttemptAt: longAgo(4) });
    for (const d of [found, orphan, again, elsewhere, last]) await storage.webhookDeliveries.insert(d);
    const leased = { leaseUntil: f.at(60_000), leasedBy: "w1" };
    expect(await storage.webhookDeliveries.claimDueDeliveries(longAgo(10), 5, f.at(60_000), "w1")).toEqual([
      { delivery: { ...found, ...leased }, event, subscription },
      { delivery: { ...orphan, ...leased }, event: null, subscription: null },
      { delivery: { ...again, ...leased }, event: second, subscription },
      { delivery: { ...elsewhere, ...leased }, event: second, subscription: other },
      { delivery: { ...last, ...leased }, event: third, subscription },
    ]);
  });
}
