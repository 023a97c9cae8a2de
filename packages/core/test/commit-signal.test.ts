import { memoryStorage } from "@vitrina/adapter-memory";
import { describe, expect, it } from "vitest";
import type { EventRepository } from "../src/ports/event-storage.js";
import type { OutboundMessageRepository } from "../src/ports/lead-storage.js";
import type { WebhookDeliveryRepository } from "../src/ports/webhook-storage.js";
import { createCommitSignal, notifyOnDeliveryCommit } from "../src/webhooks/commit-signal.js";

/**
 * Every method of the delivery port, classified: does it make a delivery due for a worker?
 * Typed as a full Record, so a method added to the port fails to compile here until someone
 * decides; the test below then checks that the wrapper wakes workers for exactly these.
 */
const makesDeliveryDue: Record<keyof WebhookDeliveryRepository, boolean> = {
  insert: true,
  reschedule: true,
  get: false,
  claimDueDeliveries: false,
  completeClaim: false,
  readEventsAndSubscriptions: false,
  outboxStats: false,
  listBySubscription: false,
};

/** A Storage whose delivery methods do nothing, to watch only what the wrapper adds. */
function inertStorage() {
  const storage = memoryStorage();
  const inert = Object.fromEntries(
    Object.keys(makesDeliveryDue).map((method) => [method, () => Promise.resolve(null)]),
  ) as unknown as WebhookDeliveryRepository;
  return {
    ...storage,
    webhookDeliveries: inert,
    transaction: <T>(work: (tx: typeof storage) => Promise<T>) => work({ ...storage, webhookDeliveries: inert }),
  };
}

const methods = Object.keys(makesDeliveryDue) as (keyof WebhookDeliveryRepository)[];
const call = (repo: WebhookDeliveryRepository, method: keyof WebhookDeliveryRepository) =>
  (repo[method] as (...args: unknown[]) => Promise<unknown>)();

describe("notifyOnDeliveryCommit", () => {
  it("classifies every method a real adapter's delivery repository has", () => {
    expect(Object.keys(memoryStorage().webhookDeliveries).sort()).toEqual([...methods].sort());
  });

  it.each(methods)("%s wakes workers only if it makes a delivery due (outside a transaction)", async (method) => {
    const signal = createCommitSignal();
    let wakes = 0;
    signal.subscribe(() => wakes++);
    await call(notifyOnDeliveryCommit(inertStorage(), signal).webhookDeliveries, method);
    expect(wakes).toBe(makesDeliveryDue[method] ? 1 : 0);
  });

  it.each(methods)("%s in a transaction wakes workers only after the commit, if it made one due", async (method) => {
    const signal = createCommitSignal();
    let wakes = 0;
    signal.subscribe(() => wakes++);
    const storage = notifyOnDeliveryCommit(inertStorage(), signal);
    await storage.transaction(async (tx) => {
      await call(tx.webhookDeliveries, method);
      await call(tx.webhookDeliveries, method);
      expect(wakes).toBe(0);
    });
    expect(wakes).toBe(makesDeliveryDue[method] ? 1 : 0);
  });

  it("does not wake workers when the transaction rolls back", async () => {
    const signal = createCommitSignal();
    let wakes = 0;
    signal.subscribe(() => wakes++);
    const storage = notifyOnDeliveryCommit(inertStorage(), signal);
    await expect(
      storage.transaction(async (tx) => {
        await tx.webhookDeliveries.insert({} as never);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(wakes).toBe(0);
  });

  it("keeps the storage's other repositories and lifecycle methods", async () => {
    const inner = memoryStorage();
    const storage = notifyOnDeliveryCommit(inner, createCommitSignal());
    expect(storage.contacts).toBe(inner.contacts);
    await expect(storage.ping()).resolves.toBeUndefined();
  });
});

describe("notifyOnDeliveryCommit: an event's fan-out", () => {
  /** Every method of the event port; only a fan-out can make deliveries due. */
  const eventMethods: Record<keyof EventRepository, true> = {
    append: true,
    appendAndFanOut: true,
    get: true,
    listByWorkspace: true,
  };
  /** A Storage whose fan-out writes `written` deliveries (and does nothing else). */
  function fanningOut(written: number) {
    const storage = memoryStorage();
    const events: EventRepository = {
      ...storage.events,
      appendAndFanOut: async () => Array.from({ length: written }, () => ({}) as never),
    };
    return {
      ...storage,
      events,
      transaction: <T>(work: (tx: typeof storage) => Promise<T>) => work({ ...storage, events }),
    };
  }

  it("wraps every method a real adapter's event repository has", () => {
    expect(Object.keys(memoryStorage().events).sort()).toEqual(Object.keys(eventMethods).sort());
  });

  it.each([
    [2, 1],
    [0, 0],
  ])("a fan-out that wrote %i deliveries wakes workers %i time(s), after the commit", async (written, expected) => {
    const signal = createCommitSignal();
    let wakes = 0;
    signal.subscribe(() => wakes++);
    const storage = notifyOnDeliveryCommit(fanningOut(written), signal);
    await storage.events.appendAndFanOut({} as never, { retryUntil: "" });
    expect(wakes).toBe(expected);
    wakes = 0;
    await storage.transaction(async (tx) => {
      await tx.events.appendAndFanOut({} as never, { retryUntil: "" });
      await tx.events.append({} as never).catch(() => {});
      expect(wakes).toBe(0);
    });
    expect(wakes).toBe(expected);
  });
});

describe("notifyOnDeliveryCommit: a first message that opens a conversation", () => {
  /** Every method of the first-message port; only recording an outcome can fan an event out. */
  const outboundMethods: Record<keyof OutboundMessageRepository, true> = {
    insert: true,
    findByLeadEvent: true,
    recordOutcome: true,
    listByWorkspace: true,
    findLatestLiveByContact: true,
    claimUnsent: true,
    claimForSending: true,
    failInFlight: true,
    listUnsettled: true,
  };
  /** A Storage whose outcome recording reports `written` deliveries (and does nothing else). */
  function recording(written: number) {
    const storage = memoryStorage();
    const outbound: OutboundMessageRepository = {
      ...storage.outbound,
      recordOutcome: async () => ({ recorded: true, conversationId: "c", opened: written > 0, deliveries: written }),
    };
    return {
      ...storage,
      outbound,
      transaction: <T>(work: (tx: typeof storage) => Promise<T>) => work({ ...storage, outbound }),
    };
  }

  it("wraps every method a real adapter's first-message repository has", () => {
    expect(Object.keys(memoryStorage().outbound).sort()).toEqual(Object.keys(outboundMethods).sort());
  });

  it.each([
    [3, 1],
    [0, 0],
  ])("an outcome that wrote %i deliveries wakes workers %i time(s), after the commit", async (written, expected) => {
    const signal = createCommitSignal();
    let wakes = 0;
    signal.subscribe(() => wakes++);
    const storage = notifyOnDeliveryCommit(recording(written), signal);
    await storage.outbound.recordOutcome({} as never);
    expect(wakes).toBe(expected);
    wakes = 0;
    await storage.transaction(async (tx) => {
      await tx.outbound.recordOutcome({} as never);
      expect(wakes).toBe(0);
    });
    expect(wakes).toBe(expected);
  });
});
