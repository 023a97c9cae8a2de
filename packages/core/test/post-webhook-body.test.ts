import { fetchSender, postWebhook } from "@vitrina/core/webhooks";
import { describe, expect, it } from "vitest";

const request = (fetch: typeof globalThis.fetch, timeoutMs = 200) =>
  postWebhook({
    send: fetchSender(fetch),
    url: "https://erp.example.cl/hooks",
    body: "{}",
    signature: "t=1,v1=00",
    eventId: "evt_1",
    headerPrefix: "Vitrina",
    timeoutMs,
  });

/** A 200 whose body stream is produced by `pull`; records whether the reader cancelled it. */
function answering(pull: (controller: ReadableStreamDefaultController<Uint8Array>) => Promise<void> | void) {
  const seen = { pulled: 0, cancelled: false };
  const fetch = (async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        pull(controller) {
          seen.pulled++;
          return pull(controller);
        },
        cancel() {
          seen.cancelled = true;
        },
      }),
      { status: 200 },
    )) as typeof globalThis.fetch;
  return { fetch, seen };
}

// With a `fetch` that doesn't tie the body to the abort signal (any injected fetch may not), the
// attempt must still stop at the prefix limit or the deadline.
describe("postWebhook reading the answer", () => {
  it("reads an endless body only up to the 64 KiB prefix, then cancels it", async () => {
    const { fetch, seen } = answering((controller) => controller.enqueue(new Uint8Array(1024)));
    const result = await request(fetch, 5_000);
    expect(result).toMatchObject({ ok: true, statusCode: 200, error: null });
    expect(seen.cancelled).toBe(true);
    expect(seen.pulled).toBeLessThanOrEqual(64 + 2);
  });

  it("fails a body that never ends, when the fetch ignores the abort signal, as a timeout", async () => {
    const { fetch, seen } = answering(() => new Promise<void>(() => {}));
    const result = await request(fetch, 200);
    expect(result).toMatchObject({ ok: false, statusCode: null, error: "timed out after 200 ms" });
    expect(seen.cancelled).toBe(true);
  });

  it("reads a short body to its end and succeeds", async () => {
    const result = await request((async () => new Response("ok", { status: 200 })) as typeof fetch);
    expect(result).toMatchObject({ ok: true, statusCode: 200 });
  });
});
