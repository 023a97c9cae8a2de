import { afterEach, describe, expect, it } from "vitest";
import { startReceiver, startWebhookHarness } from "../support/webhook-harness.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

describe("retry window on a manual clock", () => {
  it("backs off exponentially to hourly, tries a last time at 24 h, then marks the delivery failed", async () => {
    const receiver = await startReceiver((_d, res) => {
      res.statusCode = 503;
      res.end();
    });
    closers.push(receiver.close);
    const h = await startWebhookHarness();
    const sub = await h.subscribe(receiver.url);
    await h.quote();
    const start = h.clock.now().getTime();
    const offsets: number[] = [];
    for (let guard = 0; guard < 100; guard++) {
      if ((await h.vitrina.outbox.dispatcher.runOnce("w")) === 1) offsets.push(h.clock.now().getTime() - start);
      const [delivery] = (await h.api("GET", `/v1/webhooks/${sub}/deliveries`)).json.data;
      if (delivery.status !== "pending") break;
      h.clock.set(delivery.next_attempt_at);
    }
    const seconds = offsets.map((ms) => ms / 1000);
    // 10 s doubling (jitter pinned at 0), capped at 1 h, the last attempt exactly at 24 h.
    expect(seconds.slice(0, 10)).toEqual([0, 10, 30, 70, 150, 310, 630, 1270, 2550, 5110]);
    const gaps = seconds.slice(1).map((s, i) => s - seconds[i]!);
    expect(Math.max(...gaps)).toBe(3600);
    expect(seconds.at(-1)).toBe(24 * 3600);
    expect(receiver.received).toHaveLength(offsets.length);
    const [delivery] = (await h.api("GET", `/v1/webhooks/${sub}/deliveries`)).json.data;
    expect(delivery).toMatchObject({
      status: "failed",
      attempt_count: offsets.length,
      last_error: "HTTP 503",
      next_attempt_at: null,
    });
    expect(delivery.attempts).toHaveLength(offsets.length);
    expect(offsets.length).toBe(33); // 10 backoff steps, then hourly up to the final attempt at 24 h
    h.clock.advance(7 * 24 * 3600_000);
    expect(await h.vitrina.outbox.dispatcher.runOnce("w")).toBe(0);
  });

  it("jitters each delay within ±20 %", async () => {
    const { nextAttemptAt, defaultRetryPolicy } = await import("@vitrina/core/webhooks");
    const now = new Date("2026-01-01T00:00:00Z");
    const until = new Date(now.getTime() + 86_400_000);
    const at = (random: number, attempts: number) =>
      nextAttemptAt({ ...defaultRetryPolicy, random: () => random }, attempts, now, until)!.getTime() - now.getTime();
    expect(at(0, 1)).toBe(8_000);
    expect(at(0.999999, 1)).toBeCloseTo(12_000, -1);
    expect(at(0.5, 20)).toBe(3_600_000);
    expect(nextAttemptAt(defaultRetryPolicy, 3, until, until)).toBeNull();
  });

  // `{ ...defaults, ...retry }` let an explicit undefined replace the default: the next attempt was
  // an Invalid Date, so the POST went out and nothing was recorded (the dispatcher threw).
  it("keeps the default for a retry key given as undefined, and records the failed attempt", async () => {
    const receiver = await startReceiver((_d, res) => {
      res.statusCode = 500;
      res.end();
    });
    closers.push(receiver.close);
    const h = await startWebhookHarness({
      webhooks: { allowInsecureLoopback: true, retry: { baseDelayMs: undefined, jitter: 0 } },
    });
    const sub = await h.subscribe(receiver.url);
    await h.quote();
    await h.vitrina.outbox.dispatcher.runOnce("w");
    expect(receiver.received).toHaveLength(1);
    const [delivery] = (await h.api("GET", `/v1/webhooks/${sub}/deliveries`)).json.data;
    expect(delivery).toMatchObject({ status: "pending", attempt_count: 1, last_error: "HTTP 500" });
    expect(Date.parse(delivery.next_attempt_at) - h.clock.now().getTime()).toBe(10_000);
  });
});
