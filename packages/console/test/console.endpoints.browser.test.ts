import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { sampleEventData } from "../../core/src/events/sample-events.js";
import { webhookFixtures } from "../../core/src/testing/webhook-fixtures.js";
import { checkScreen as check, hasBrowser, useConsoleBrowser } from "./support/browser.js";

// Endpoint health, recovery and the searchable history in a real browser (see support/browser.ts).
/** Port 9 (discard) on loopback: nothing listens, so every attempt is refused. */
const REFUSING_URL = "http://127.0.0.1:9/refusing";

describe.skipIf(!hasBrowser)("webhook endpoints in the console, in Chromium", () => {
  const env = useConsoleBrowser();
  let server: ReturnType<typeof env.server>;
  let receiver: ReturnType<typeof env.receiver>;
  let browser: ReturnType<typeof env.browser>;
  beforeAll(() => {
    [server, receiver, browser] = [env.server(), env.receiver(), env.browser()];
  });

  /** Adds an endpoint and sends it a test event; the redirect lands on the endpoint's own page. */
  async function addEndpoint(page: Page, url: string) {
    await page.goto(`${server.url}/console/webhooks`);
    await page.getByLabel("Endpoint URL").fill(url);
    await page.getByLabel("conversation.started").check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const secret = (await page.locator("#webhook-secret").textContent())!.trim();
    await page.getByRole("button", { name: "Send test event" }).click();
    await page.waitForURL(/\/console\/webhooks\/whs_[0-9a-f]+\?notice=test_sent$/);
    const path = new URL(page.url()).pathname;
    return { secret, page: `${server.url}${path}`, id: path.split("/").at(-1)! };
  }

  /** Three deliveries to `subscriptionId` that ended failed two hours ago (the receiver was down then). */
  async function seedFailedDeliveries(subscriptionId: string) {
    const { storage } = server.vitrina;
    const w = webhookFixtures();
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    for (let i = 0; i < 3; i++) {
      const created = new Date(twoHoursAgo.getTime() + i * 1000).toISOString();
      const data = sampleEventData("conversation.started", (kind) => `sample_${kind}_${i}`, twoHoursAgo);
      const event = w.event(server.workspaceId, { type: "conversation.started", created, data });
      await storage.events.append(event);
      await storage.webhookDeliveries.insert(
        w.delivery(server.workspaceId, subscriptionId, {
          eventId: event.id,
          eventType: event.type,
          status: "failed",
          attemptCount: 33,
          lastError: "ECONNREFUSED",
          createdAt: created,
          nextAttemptAt: created,
        }),
      );
    }
  }

  it("shows a refusing endpoint as failing beside a healthy one, recovers failed deliveries, and shows what was sent", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/console`);
    await page.getByRole("button", { name: "Sign in as owner" }).click();
    await page.waitForURL(`${server.url}/console/integrations`);

    const healthy = await addEndpoint(page, receiver.url);
    const refusing = await addEndpoint(page, REFUSING_URL);
    // Both attempted once: one answered 200, the other refused.
    await expect
      .poll(async () => (await page.goto(refusing.page), await page.locator("ol.attempts li").count()), {
        timeout: 15_000,
      })
      .toBe(1);
    expect(await page.locator("#health-heading + dl").textContent()).toMatch(/Failing since\s*\d{4}-/);
    expect(await page.locator("#health-heading + dl").textContent()).toContain("0 %");
    await check(page, "webhook-endpoint-failing");

    await expect
      .poll(async () => (await page.goto(healthy.page), await page.locator("ol.attempts li").count()), {
        timeout: 15_000,
      })
      .toBe(1);
    await page.getByRole("link", { name: "Webhooks", exact: true }).click();
    const row = (url: string) => page.locator("tbody tr", { has: page.getByRole("link", { name: url }) });
    expect(await row(REFUSING_URL).textContent()).toMatch(/failing\s*since \d{4}-/);
    expect(await row(REFUSING_URL).textContent()).toContain("no response (ECONNREFUSED");
    expect(await row(receiver.url).textContent()).toMatch(/healthy\s*100 %\s*of 1 attempts/);
    await check(page, "webhooks-health");

    // The healthy endpoint's receiver was down two hours ago: its failed deliveries come back.
    await seedFailedDeliveries(healthy.id);
    await page.goto(healthy.page);
    await page.getByLabel("Status").selectOption("failed");
    await page.getByRole("button", { name: "Filter" }).click();
    expect(await page.locator("tbody tr").count()).toBe(3);
    await check(page, "webhook-history-filtered");
    const before = receiver.received.length;
    const threeHoursAgo = new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 16);
    await page.getByLabel("Since (UTC)").fill(threeHoursAgo);
    await page.getByRole("button", { name: "Recover failed deliveries" }).click();
    expect(await page.getByRole("status").textContent()).toContain("3 failed deliveries queued again");
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(before + 3);
    // Run again: nothing is requeued twice.
    await page.getByLabel("Since (UTC)").fill(threeHoursAgo);
    await page.getByRole("button", { name: "Recover failed deliveries" }).click();
    expect(await page.getByRole("status").textContent()).toContain("0 failed deliveries queued again");
    await check(page, "webhook-recovered");

    // One delivery: the payload as sent and the headers, signature redacted, never the secret.
    await page.goto(`${healthy.page}?event_type=conversation.started`);
    await page
      .getByRole("link", { name: /^Delivery of event/ })
      .first()
      .click();
    const main = (await page.locator("main").textContent())!;
    expect(main).toContain('"type": "conversation.started"');
    expect(main).toContain("Request headers (signatures redacted)");
    expect(main).toMatch(/Vitrina-Signature: t=\d+,v1=<redacted>/);
    expect(await page.content()).not.toContain(healthy.secret);
    await check(page, "webhook-delivery");
    await context.close();
  }, 90_000);
});
