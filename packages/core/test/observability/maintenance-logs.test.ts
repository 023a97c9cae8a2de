import { memoryStorage } from "@vitrina/adapter-memory";
import { StorageError, type Storage } from "@vitrina/core";
import { describe, expect, it, vi } from "vitest";
import { observedVitrina } from "./support.js";

/** What a storage adapter throws during an outage: a generic message, the driver's words in `cause`. */
const outage = () =>
  new StorageError("storage_unavailable", "the database is unavailable", {
    cause: new Error("connect ECONNREFUSED 10.0.3.12:5432"),
  });

describe("the worker's housekeeping, when storage fails", () => {
  it("logs a failed retention run at error with what the driver said, not only the wrapper's message", async () => {
    const storage = memoryStorage();
    const failing: Storage = {
      ...storage,
      retention: { ...storage.retention, purgeFinishedDeliveries: () => Promise.reject(outage()) },
    };
    const h = await observedVitrina({ storage: failing });
    const worker = h.vitrina.outbox.startWorker({ sweepIntervalMs: 3_600_000 });
    try {
      await vi.waitFor(() => expect(h.lines).toContainEqual(expect.objectContaining({ task: "retention" })));
    } finally {
      await worker.stop();
    }
    const failed = h.lines.filter((line) => line.task === "retention");
    expect(failed).toEqual([expect.objectContaining({ level: 50, msg: "retention failed; retrying at the next run" })]);
    expect(String(failed[0]!.error)).toContain("the database is unavailable");
    expect(String(failed[0]!.error)).toContain("connect ECONNREFUSED 10.0.3.12:5432");
  });

  it("logs a first message it could not reconcile with what the driver said", async () => {
    const storage = memoryStorage();
    // A first message handed to the provider long ago, whose settling write hits the outage.
    const stuck = { id: "out-1", leadEventId: "lead-1", handedToProviderAt: "2026-03-01T10:00:00.000Z" };
    const failing: Storage = {
      ...storage,
      outbound: {
        ...storage.outbound,
        listUnsettled: async () => [stuck as never],
        failInFlight: () => Promise.reject(outage()),
      },
    };
    const h = await observedVitrina({ storage: failing });
    await h.vitrina.maintenance.reconcileFirstMessages();
    const failed = h.lines.filter((line) => line.outboundId === "out-1");
    expect(failed).toEqual([
      expect.objectContaining({ level: 50, msg: "reconciling a first message failed; retrying at the next sweep" }),
    ]);
    expect(String(failed[0]!.error)).toContain("connect ECONNREFUSED 10.0.3.12:5432");
  });
});
