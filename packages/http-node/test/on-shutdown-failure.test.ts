import { memoryStorage } from "@vitrina/adapter-memory";
import type { Storage } from "@vitrina/core";
import { serve, serveVitrina, startWorker } from "@vitrina/http-node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends, openTestStorage } from "../../adapter-postgres/test/support.js";
import { recordingLogger } from "./support/recording-logger.js";
import { startWebhookHarness } from "./support/webhook-harness.js";

// An `onShutdown` that throws (a pool already ended, a flush that failed) used to reject the promise
// a SIGTERM handler started and nobody awaited: an unhandled rejection, which ends Node with code 1
// before the rest of the shutdown ran, and `startWorker`'s `stopped` never resolved. Now it is
// logged with where it ran, and the shutdown completes.
const closers: Array<() => Promise<void>> = [];
const unhandled: unknown[] = [];
const recordUnhandled = (reason: unknown) => void unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on("unhandledRejection", recordUnhandled);
});
afterEach(async () => {
  process.off("unhandledRejection", recordUnhandled);
  while (closers.length > 0) await closers.pop()!();
});

/** The SIGTERM listener `start` adds, so the test runs it as the signal would without signalling the test runner. */
async function sigtermListenerOf<T>(start: () => Promise<T> | T): Promise<{ started: T; onSigterm: () => void }> {
  const before = new Set(process.listeners("SIGTERM"));
  const started = await start();
  const added = process.listeners("SIGTERM").filter((listener) => !before.has(listener));
  expect(added).toHaveLength(1);
  return { started, onSigterm: () => (added[0] as (signal: NodeJS.Signals) => void)("SIGTERM") };
}

const failingHook = () => {
  let calls = 0;
  let markRan!: () => void;
  const ran = new Promise<void>((resolve) => (markRan = resolve));
  const hook = async () => {
    calls++;
    markRan();
    throw new Error("pool already ended");
  };
  return { hook, ran, calls: () => calls };
};
const settled = () => new Promise((resolve) => setTimeout(resolve, 50));
const within = <T>(promise: Promise<T>, ms = 2_000) =>
  Promise.race([
    promise,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`not settled in ${ms} ms`)), ms)),
  ]);

describe.each(["memory", ...backends] as const)("an onShutdown that throws (%s)", (backend) => {
  async function harness() {
    const storage: Storage = backend === "memory" ? memoryStorage() : (await openTestStorage(backend)).storage;
    closers.push(() => storage.close());
    const { logger, entries } = recordingLogger();
    const h = await startWebhookHarness({ storage, logger });
    return { h, entries };
  }
  const failures = (entries: ReturnType<typeof recordingLogger>["entries"]) =>
    entries.filter((e) => e.level === "error" && e.message.includes("onShutdown"));

  it("serveVitrina on SIGTERM: logged through vitrina's logger, the server and worker stop, no unhandled rejection", async () => {
    const { h, entries } = await harness();
    const failing = failingHook();
    const { started: server, onSigterm } = await sigtermListenerOf(() =>
      // The harness closes its storage itself (after dropping its schema), so Vitrina is left open here.
      serveVitrina(h.vitrina, { port: 0, onShutdown: failing.hook, closeOnShutdown: false }),
    );
    closers.push(() => server.close());
    expect((await fetch(`${server.url}/healthz`)).status).toBeLessThan(500);
    onSigterm();
    await within(failing.ran);
    await settled();
    expect(unhandled).toEqual([]);
    await expect(within(server.close())).resolves.toBeUndefined();
    await expect(within(server.worker!.stopped)).resolves.toBeUndefined();
    expect(server.server.listening).toBe(false);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    expect(failing.calls()).toBe(1);
    expect(failures(entries)).toHaveLength(1);
    expect(failures(entries)[0]!.fields).toMatchObject({
      url: server.url,
      error: expect.stringContaining("pool already ended"),
    });
  });

  it("startWorker on SIGTERM: logged through vitrina's logger, stopped resolves, no unhandled rejection", async () => {
    const { h, entries } = await harness();
    const failing = failingHook();
    const { started: worker, onSigterm } = await sigtermListenerOf(() =>
      startWorker(h.vitrina, { onShutdown: failing.hook }),
    );
    closers.push(() => worker.stop());
    onSigterm();
    await within(failing.ran);
    await settled();
    expect(unhandled).toEqual([]);
    await expect(within(worker.stopped)).resolves.toBeUndefined();
    await expect(within(worker.stop())).resolves.toBeUndefined();
    expect(failures(entries)).toHaveLength(1);
    expect(failures(entries)[0]!.fields).toMatchObject({
      workerId: worker.workerId,
      error: expect.stringContaining("pool already ended"),
    });
  });
});

it("serve with a plain handler: close() completes and reports the failure through options.logger", async () => {
  const { logger, entries } = recordingLogger();
  const failing = failingHook();
  const server = await serve(async () => new Response("ok"), {
    port: 0,
    handleSignals: false,
    onShutdown: failing.hook,
    logger,
  });
  await expect(within(server.close())).resolves.toBeUndefined();
  expect(server.server.listening).toBe(false);
  expect(entries.filter((e) => e.level === "error")).toMatchObject([
    { fields: { url: server.url, error: expect.stringContaining("pool already ended") } },
  ]);
});
