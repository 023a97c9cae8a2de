import { memoryStorage } from "@vitrina/adapter-memory";
import { describe, expect, it } from "vitest";
import type { EventRepository } from "../src/ports/event-storage.js";
import type { OutboundMessageRepository } from "../src/ports/lead-storage.js";
import type { StorageRepositories } from "../src/ports/storage.js";
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
  completeClaims: false,
  outboxStats: false,
  listBySubscription: false,
  requeueFailed: true,
  attemptCounts: false,
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

/**
 * The writes outside `webhookDeliveries` that can make deliveries due (they fan an event out), each
 * with every method of its repository, typed as a full Record so that a method added to the port
 * fails to compile here until someone decides whether it can, and a stand-in for the write that
 * reports `written` deliveries and does nothing else.
 */
const fanOuts = [
  {
    write: "events.appendAndFanOut",
    repository: "events",
    fansOut: {
      append: false,
      appendAndFanOut: true,
      get: false,
      listByWorkspace: false,
    } satisfies Record<keyof EventRepository, boolean>,
    standIn: (written: number): Partial<EventRepository> => ({
      appendAndFanOut: async () => Array.from({ length: written }, () => ({}) as never),
    }),
    call: (s: StorageRepositories) => s.events.appendAndFanOut({} as never, { retryUntil: "" }),
  },
  {
    write: "outbound.recordOutcome",
    repository: "outbound",
    fansOut: {
      insert: false,
      findByLeadEvent: false,
      recordOutcome: true,
      listByWorkspace: false,
      findLatestLiveByContact: false,
      claimUnsent: false,
      claimForSending: false,
      failInFlight: false,
      listUnsettled: false,
    } satisfies Record<keyof OutboundMessageRepository, boolean>,
    standIn: (written: number): Partial<OutboundMessageRepository> => ({
      recordOutcome: async () => ({ recorded: true, conversationId: "c", opened: written > 0, deliveries: written }),
    }),
    call: (s: StorageRepositories) => s.outbound.recordOutcome({} as never),
  },
] as const;

describe.each(fanOuts)("notifyOnDeliveryCommit: $write", ({ repository, fansOut, standIn, call }) => {
  /** A memory Storage whose `repository` has the stand-in write, in and out of transactions. */
  function reporting(written: number) {
    const storage = memoryStorage();
    const replaced = { ...storage[repository], ...standIn(written) };
    return {
      ...storage,
      [repository]: replaced,
      transaction: <T>(work: (tx: typeof storage) => Promise<T>) => work({ ...storage, [repository]: replaced }),
    };
  }

  it("lists every method a real adapter's repository has, and only this one fans out", () => {
    expect(Object.keys(memoryStorage()[repository]).sort()).toEqual(Object.keys(fansOut).sort());
    expect(Object.entries(fansOut).filter(([, yes]) => yes)).toHaveLength(1);
  });

  it.each([
    [2, 1],
    [0, 0],
  ])("a write that made %i deliveries due wakes workers %i time(s), after the commit", async (written, expected) => {
    const signal = createCommitSignal();
    let wakes = 0;
    signal.subscribe(() => wakes++);
    const storage = notifyOnDeliveryCommit(reporting(written), signal);
    await call(storage);
    expect(wakes).toBe(expected);
    wakes = 0;
    await storage.transaction(async (tx) => {
      await call(tx);
      expect(wakes).toBe(0);
    });
    expect(wakes).toBe(expected);
  });
});
