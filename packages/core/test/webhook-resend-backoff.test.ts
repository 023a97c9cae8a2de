import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, silentLogger } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { createManualClock } from "@vitrina/core/testing";
import type { WebhookSend } from "@vitrina/core/webhooks";
import { describe, expect, it } from "vitest";

/**
 * A resend starts a fresh retry cycle: the backoff counts the attempts since the resend, while the
 * delivery's attempt count and history keep counting (so attempt numbers stay unique).
 */
describe("resend and the retry schedule", () => {
  it("retries a resent delivery that fails again after 10 s, not after the hour its first window had reached", async () => {
    const clock = createManualClock("2026-03-01T00:00:00.000Z");
    let answer = 503;
    const send: WebhookSend = async () => ({ status: answer, head: new Uint8Array(0) });
    const vitrina = createVitrina({
      storage: memoryStorage(),
      messaging: logMessagingTransport(silentLogger),
      secretBox: Buffer.alloc(32, 6).toString("base64"),
      logger: silentLogger,
      clock,
      // Jitter pinned at 0: random() = 0.5 is the middle of ±20 %.
      webhooks: { send, retry: { random: () => 0.5 } },
    });
    const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner" });
    const contact = await vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164: "+56955556666" });
    const subscription = await vitrina.webhooks.create(workspace.id, {
      url: "https://erp.example.cl/hooks",
      events: ["quote.created"],
      secret: "whsec_resend_0123456789abcdef",
    });
    await vitrina.quotes.create({
      workspaceId: workspace.id,
      contactId: contact.id,
      items: [{ sku: "SKU-1", quantity: 1, unitPrice: 1000 }],
    });
    const delivery = async () => (await vitrina.webhooks.deliveries(workspace.id, subscription.id, {})).data[0]!;
    /** Runs the worker once and answers how long until the delivery's next attempt, in seconds. */
    const attempt = async () => {
      expect(await vitrina.outbox.dispatcher.runOnce("w")).toBe(1);
      const d = await delivery();
      return d.next_attempt_at === null ? null : (Date.parse(d.next_attempt_at) - clock.now().getTime()) / 1000;
    };

    // The first 24 hours: every attempt fails, the backoff reaches its hourly cap, then it gives up.
    const firstWindow: Array<number | null> = [];
    for (let guard = 0; guard < 100 && (await delivery()).status === "pending"; guard++) {
      firstWindow.push(await attempt());
      const d = await delivery();
      if (d.status === "pending") clock.set(d.next_attempt_at!);
    }
    expect(firstWindow.slice(0, 4)).toEqual([10, 20, 40, 80]);
    expect(Math.max(...firstWindow.map((s) => s ?? 0))).toBe(3600);
    const failed = await delivery();
    expect(failed).toMatchObject({ status: "failed", attempt_count: 33 });

    // The receiver was fixed but is still deploying: the resent attempt fails once more.
    clock.advance(2 * 3600_000);
    await vitrina.webhooks.resend(workspace.id, subscription.id, failed.id);
    expect(await attempt()).toBe(10);
    clock.advance(10_000);
    expect(await attempt()).toBe(20);
    // Then it answers: delivered, with every attempt numbered in one sequence across both windows.
    answer = 204;
    clock.advance(20_000);
    expect(await attempt()).toBeNull();
    const delivered = await delivery();
    expect(delivered).toMatchObject({ status: "succeeded", attempt_count: 36 });
    expect(delivered.attempts.map((a) => a.number)).toEqual(Array.from({ length: 36 }, (_, i) => i + 1));
  });
});
