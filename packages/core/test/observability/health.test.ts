import { memoryStorage } from "@vitrina/adapter-memory";
import type { Storage } from "@vitrina/core";
import { describe, expect, it, vi } from "vitest";
import { observedVitrina } from "./support.js";

const get = (path: string) => new Request(`http://vitrina.test${path}`);

/** Memory storage whose ping does what the test says: answer, fail, or never answer. */
function storageWithPing(ping: () => Promise<void>): Storage {
  return { ...memoryStorage(), ping };
}

describe("/healthz and /readyz", () => {
  it("are off unless asked for", async () => {
    const h = await observedVitrina();
    expect((await h.vitrina.handler(get("/healthz"))).status).toBe(404);
    expect((await h.vitrina.handler(get("/readyz"))).status).toBe(404);
  });

  it("/healthz answers while the process does; /readyz is ready with storage up and no worker here", async () => {
    const h = await observedVitrina({ health: true });
    const live = await h.vitrina.handler(get("/healthz"));
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "ok" });
    const ready = await h.vitrina.handler(get("/readyz"));
    expect(ready.status).toBe(200);
    expect(ready.headers.get("cache-control")).toBe("no-store");
    expect(await ready.json()).toEqual({ status: "ok", checks: { storage: "ok", worker: "not running" } });
  });

  it("/readyz is 503 when storage fails, without the error's text in the body, which goes to the log", async () => {
    const secretish = "connect ECONNREFUSED db.internal.example:5432 (PostgreSQL 16.4)";
    const h = await observedVitrina({
      health: true,
      storage: storageWithPing(async () => Promise.reject(new Error(secretish))),
    });
    const response = await h.vitrina.handler(get("/readyz"));
    expect(response.status).toBe(503);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ status: "failing", checks: { storage: "failing", worker: "not running" } });
    expect(text).not.toMatch(/ECONNREFUSED|internal|5432|16\.4/);
    expect(h.lines).toContainEqual(
      expect.objectContaining({
        level: 40,
        check: "storage",
        cause: expect.stringContaining("ECONNREFUSED"),
        requestId: response.headers.get("x-request-id"),
      }),
    );
  });

  it("/readyz is 503 when storage does not answer within readyTimeoutMs", async () => {
    const h = await observedVitrina({
      health: { readyTimeoutMs: 5 },
      storage: storageWithPing(() => new Promise(() => {})),
    });
    const response = await h.vitrina.handler(get("/readyz"));
    expect(response.status).toBe(503);
    expect((await response.json()).checks.storage).toBe("failing");
  });

  it("/readyz follows the in-process worker's heartbeat: ok while recent, 503 once stale, skipped once stopped", async () => {
    const h = await observedVitrina({ health: { maxHeartbeatAgeMs: 60_000 } });
    const worker = h.vitrina.outbox.startWorker({ sweepIntervalMs: 3_600_000 });
    try {
      // Wait for the loop's first round (it logs a heartbeat), so it is asleep when the clock moves.
      await vi.waitFor(() =>
        expect(h.lines).toContainEqual(expect.objectContaining({ msg: "outbox worker heartbeat" })),
      );
      const fresh = await h.vitrina.handler(get("/readyz"));
      expect(await fresh.json()).toEqual({ status: "ok", checks: { storage: "ok", worker: "ok" } });
      // The manual clock moves past the bound while the loop sleeps on its (real, hour-long) timer.
      h.clock.advance(60_001);
      const stale = await h.vitrina.handler(get("/readyz"));
      expect(stale.status).toBe(503);
      expect(await stale.json()).toEqual({ status: "failing", checks: { storage: "ok", worker: "stale" } });
    } finally {
      await worker.stop();
    }
    expect(await (await h.vitrina.handler(get("/readyz"))).json()).toMatchObject({ checks: { worker: "not running" } });
  });
});
