import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signLead } from "@vitrina/client";
import { VitrinaError, type MessagingTransport, type OutgoingMessage } from "@vitrina/core";
import { startConsoleServer } from "./support/console-server.js";
import { axeCheck } from "./support/axe-check.js";

// The Leads screen and the connector's refused leads in a real browser (Debian's Chromium, a real
// server on PGlite), checked with axe. Skips, saying why, where there is no Chromium (CI has one).
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const hasBrowser = existsSync(CHROMIUM);
if (!hasBrowser) {
  const why = `no Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (CI does) or set CHROMIUM_PATH`;
  if (process.env.CI === "true") throw new Error(`console leads browser tests cannot run in CI: ${why}`);
  console.warn(`skipping the console leads browser tests: ${why}`);
}
const SHOTS = fileURLToPath(new URL("../../../screenshots/console/", import.meta.url));

describe.skipIf(!hasBrowser)("console Leads screen and refused leads in Chromium", () => {
  let server: Awaited<ReturnType<typeof startConsoleServer>>;
  let browser: Browser;
  // The provider fails while `failing` is set: the lead is registered with its first message `failed`.
  const provider = { failing: true, sent: [] as OutgoingMessage[] };
  const messaging: MessagingTransport = {
    async send(message) {
      if (provider.failing) throw new VitrinaError("messaging_failed", "the provider is down");
      provider.sent.push(message);
      return { status: "sent", providerMessageId: `wamid.${provider.sent.length}` };
    },
  };
  let connector: { id: string; secret: string };

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    [server, browser] = await Promise.all([
      startConsoleServer({ messaging }),
      chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] }),
    ]);
    const created = await server.vitrina.connectors.create(
      { userId: "owner@example.com" },
      { workspaceId: server.workspaceId, name: "HubSpot", systemId: "hubspot" },
    );
    connector = { id: created.connector.id, secret: created.secret };
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const check = (page: Page, name: string) => axeCheck(page, name, SHOTS);

  async function signIn(as: "owner" | "member") {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${server.url}/console`);
    await page.getByRole("button", { name: `Sign in as ${as}` }).click();
    await page.waitForURL(`${server.url}/console/integrations`);
    return page;
  }

  async function postLead(options: { secret?: string; phone?: string } = {}) {
    const phone = options.phone ?? `+5699${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
    const body = JSON.stringify({
      event: "lead.created",
      source_lead_id: `browser-${crypto.randomUUID()}`,
      contact: { phone_e164: phone, name: "Test" },
      whatsapp_consent: { granted: true, timestamp: "2026-01-01T00:00:00Z" },
    });
    const { headers } = signLead({ connectorId: connector.id, secret: options.secret ?? connector.secret, body });
    const response = await fetch(`${server.url}/functions/v1/lead-intake`, { method: "POST", headers, body });
    return { status: response.status, json: (await response.json()) as any, phone };
  }

  it("an owner filters the leads, retries a failed first message, and follows the links to the contact", async () => {
    provider.failing = true;
    const failed = await postLead();
    expect(failed.json.outbound.status).toBe("failed");
    const page = await signIn("owner");
    await page.getByRole("link", { name: "Leads", exact: true }).click();
    await expect.poll(() => page.locator("table tbody tr").count()).toBeGreaterThanOrEqual(1);
    await check(page, "leads");
    await page.getByLabel("First message", { exact: true }).selectOption("failed");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.waitForURL(/first_message_status=failed/);
    const row = page.locator("table tbody tr").first();
    expect(await row.textContent()).toContain("failed");
    provider.failing = false;
    await row.getByRole("button", { name: /Retry first message/ }).click();
    await page.waitForURL(/notice=retried/);
    expect(await page.getByRole("status").textContent()).toContain("First message sent again");
    expect(provider.sent.filter((m) => m.to === failed.phone)).toHaveLength(1);
    // The filter (failed) is kept: the retried lead is no longer in it.
    expect(await page.locator("main").textContent()).not.toContain(failed.json.lead_event_id);
    await page.getByLabel("First message", { exact: true }).selectOption("sent");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.waitForURL(/first_message_status=sent/);
    await check(page, "leads-filtered");
    await page.locator("table tbody tr").first().getByRole("link", { name: "Contact" }).click();
    await page.waitForURL(new RegExp(`/console/contacts/${failed.json.contact_id}$`));
    await page.context().close();
  });

  it("a retry after an opt-out sends nothing and says why", async () => {
    provider.failing = true;
    const failed = await postLead();
    provider.failing = false;
    await server.vitrina.contacts.optOutOfWhatsApp({ workspaceId: server.workspaceId, phoneE164: failed.phone });
    const page = await signIn("owner");
    await page.goto(`${server.url}/console/leads?first_message_status=failed`);
    // Newest first: the lead just registered is the first row.
    await page
      .locator("table tbody tr")
      .first()
      .getByRole("button", { name: /Retry first message/ })
      .click();
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("opted out");
    expect(provider.sent.filter((m) => m.to === failed.phone)).toHaveLength(0);
    await check(page, "leads-retry-refused");
    await page.context().close();
  });

  it("a member sees the leads but cannot retry, even by posting the form", async () => {
    provider.failing = true;
    const failed = await postLead();
    provider.failing = false;
    const page = await signIn("member");
    await page.goto(`${server.url}/console/leads`);
    expect(await page.getByRole("button", { name: /Retry first message/ }).count()).toBe(0);
    expect(await page.locator("main").textContent()).toContain("Only an owner or admin can retry");
    await check(page, "leads-as-member");
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const forged = await page.request.post(
      `${server.url}/console/leads/${failed.json.lead_event_id}/retry-first-message`,
      { form: { _csrf: csrf }, headers: { origin: server.url }, maxRedirects: 0 },
    );
    expect(forged.status()).toBe(403);
    expect(provider.sent.filter((m) => m.to === failed.phone)).toHaveLength(0);
    await page.context().close();
  });

  it("the connector screen shows refused leads with code, fields and skew, never the signature", async () => {
    const refused = await postLead({ secret: "wrong-secret" });
    expect(refused.status).toBe(401);
    const page = await signIn("owner");
    await page.goto(`${server.url}/console/integrations/${connector.id}`);
    const section = page.getByRole("region", { name: "Refused leads" });
    await expect.poll(() => section.locator("tbody tr").count()).toBeGreaterThanOrEqual(1);
    const first = await section.locator("tbody tr").first().textContent();
    expect(first).toContain("invalid_signature");
    expect(first).toContain("X-Vitrina-Signature");
    expect(await page.content()).not.toContain("wrong-secret");
    await check(page, "connector-refusals");
    await page.context().close();
  });
});
