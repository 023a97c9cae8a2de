import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { signLead } from "@vitrina/client";
import { Webhook } from "standardwebhooks";
import { seedWhatsAppThread } from "../../http-node/test/support/whatsapp-thread-seed.js";
import { MEMBER, OWNER } from "./support/console-server.js";
import { checkScreen, hasBrowser, useConsoleBrowser } from "./support/browser.js";

describe.skipIf(!hasBrowser)("web console in Chromium (PGlite server, real receiver)", () => {
  // Chromium, a console server on PGlite and a webhook receiver (support/browser.ts); screenshots
  // of every screen land in the git-ignored screenshots/console/.
  const env = useConsoleBrowser();
  const check = checkScreen;

  async function signIn(as: "owner" | "member") {
    const context = await env.browser().newContext();
    const page = await context.newPage();
    await page.goto(`${env.server().url}/console`);
    await page.getByRole("button", { name: `Sign in as ${as}` }).click();
    await page.waitForURL(`${env.server().url}/console/integrations`);
    return page;
  }

  async function postLead(intakeUrl: string, connectorId: string, secret: string) {
    const body = JSON.stringify({
      event: "lead.created",
      source_lead_id: `browser-${crypto.randomUUID()}`,
      contact: { phone_e164: `+5699${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`, name: "Test" },
    });
    const { headers } = signLead({ connectorId, secret, body });
    return (await fetch(intakeUrl, { method: "POST", headers, body })).status;
  }

  it("Integrations: creates a connector, signs a lead with the secret shown once, sees it, rotates", async () => {
    const page = await signIn("owner");
    await check(page, "integrations-empty");
    await page.getByLabel("Visible name").fill("HubSpot");
    await page.getByLabel("System identifier").fill("hubspot");
    await page.getByRole("button", { name: "Create connector" }).click();
    const secret = (await page.locator("#connector-secret").textContent())!.trim();
    const connectorId = (await page.locator("#connector-id").textContent())!.trim();
    const intakeUrl = (await page.locator("#intake-url").textContent())!.trim();
    expect(intakeUrl).toBe(`${env.server().url}/functions/v1/lead-intake`);
    await check(page, "connector-created");
    expect(await postLead(intakeUrl, connectorId, secret)).toBe(200);

    await page.goto(`${env.server().url}/console/integrations/${connectorId}`);
    await expect.poll(() => page.locator("table tbody tr").count()).toBe(1);
    expect(await page.content()).not.toContain(secret);
    await check(page, "connector");

    await page.getByLabel("I understand the current secret stops working now").check();
    await page.getByRole("button", { name: "Rotate secret" }).click();
    const rotated = (await page.locator("#connector-secret").textContent())!.trim();
    expect(rotated).not.toBe(secret);
    expect(await postLead(intakeUrl, connectorId, secret)).toBe(401);
    expect(await postLead(intakeUrl, connectorId, rotated)).toBe(200);
    await page.getByRole("link", { name: "Integrations" }).click();
    await check(page, "integrations");
    await page.context().close();
  });

  it("Webhooks: subscribes a local receiver, sees a delivery and its attempt, resends and sees a new attempt", async () => {
    const page = await signIn("owner");
    await page.getByRole("link", { name: "Webhooks" }).click();
    await check(page, "webhooks-empty");
    await page.getByLabel("Endpoint URL").fill(env.receiver().url);
    await page.getByLabel("conversation.started").check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    expect((await page.locator("#webhook-secret").textContent())!.trim()).toMatch(/^whsec_/);
    // A sample of a real event type (item 8 of issue 46), not only the webhook.test ping.
    await page.locator('select[name="type"]').selectOption("quote.created");
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect.poll(() => env.receiver().received.length, { timeout: 10_000 }).toBe(1);
    expect(JSON.parse(env.receiver().received[0]!.body)).toMatchObject({
      type: "quote.created",
      data: { currency: "CLP" },
    });
    const detail = page.url();
    await expect
      .poll(async () => (await page.goto(detail), await page.locator("ol.attempts li").count()), { timeout: 10_000 })
      .toBe(1);
    const attempt = await page.locator("ol.attempts li").first().textContent();
    expect(attempt).toContain("HTTP 200");
    expect(attempt).toContain("received by the test receiver");
    await check(page, "webhook-endpoint");

    await page.getByRole("button", { name: /^Resend delivery/ }).click();
    await expect.poll(() => env.receiver().received.length, { timeout: 10_000 }).toBe(2);
    await expect
      .poll(async () => (await page.goto(detail), await page.locator("ol.attempts li").count()), { timeout: 10_000 })
      .toBe(2);
    await page.getByRole("button", { name: "Disable" }).click();
    expect(await page.getByRole("status").textContent()).toContain("Endpoint disabled");
    expect(await page.getByRole("button", { name: "Send test event" }).count()).toBe(0);
    await page.getByRole("button", { name: "Enable" }).click();
    expect(await page.getByRole("status").textContent()).toContain("Endpoint enabled");
    await page.getByRole("link", { name: "Webhooks" }).click();
    await check(page, "webhooks");
    await page.getByRole("link", { name: env.receiver().url }).click();
    await page.getByLabel("I want to delete this endpoint").check();
    await page.getByRole("button", { name: "Delete endpoint" }).click();
    await page.waitForURL(`${env.server().url}/console/webhooks`);
    expect(await page.locator("main").textContent()).toContain("No endpoints yet");
    await page.context().close();
  });

  it("Webhooks: adds a Standard Webhooks endpoint whose test delivery the standardwebhooks library verifies", async () => {
    const page = await signIn("owner");
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByLabel("Endpoint URL").fill(env.receiver().url);
    await page.getByLabel("conversation.started").check();
    await page.getByLabel("Signing scheme").selectOption("standard-webhooks");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const secret = (await page.locator("#webhook-secret").textContent())!.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(await page.locator("main").textContent()).toContain("Standard Webhooks (webhook-id");
    await check(page, "webhook-endpoint-standard");
    const before = env.receiver().received.length;
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect.poll(() => env.receiver().received.length, { timeout: 10_000 }).toBe(before + 1);
    const got = env.receiver().received.at(-1)!;
    const headers = Object.fromEntries(
      ["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [name, String(got.headers[name])]),
    );
    expect(new Webhook(secret).verify(got.body, headers)).toMatchObject({ type: "webhook.test" });
    // Shown once: the endpoint's page, read again, never has it.
    await page.goto(page.url());
    expect(await page.content()).not.toContain(secret);
    await page.getByLabel("I want to delete this endpoint").check();
    await page.getByRole("button", { name: "Delete endpoint" }).click();
    await page.context().close();
  });

  it("Settings → API keys: issues a key that works, revokes it and it is refused", async () => {
    const page = await signIn("owner");
    await page.getByRole("link", { name: "Settings → API keys" }).click();
    await page.getByLabel("Name").fill("ERP sync");
    await page.getByLabel("webhooks:read").check();
    await page.getByRole("button", { name: "Issue key" }).click();
    const key = (await page.locator("#api-key").textContent())!.trim();
    const list = () => fetch(`${env.server().url}/v1/webhooks`, { headers: { authorization: `Bearer ${key}` } });
    expect((await list()).status).toBe(200);
    await check(page, "api-keys");
    await page.getByRole("button", { name: "Revoke ERP sync" }).click();
    expect(await page.getByRole("status").textContent()).toContain("revoked");
    expect((await list()).status).toBe(401);
    await page.context().close();
  });

  it("Settings → Members: lists the owner and the member, adds an admin", async () => {
    const page = await signIn("owner");
    await page.getByRole("link", { name: "Settings → Members" }).click();
    await page.getByLabel("Email").fill("ana@example.com");
    await page.locator("#member-role").selectOption("admin");
    await page.getByRole("button", { name: "Add member" }).click();
    expect(await page.getByRole("status").textContent()).toContain("ana@example.com added as admin");
    expect(await page.locator("table").textContent()).toContain(OWNER);
    await check(page, "members");
    await page.context().close();
  });

  it("a member sees the connector but cannot rotate it, even by posting the form", async () => {
    const owner = await signIn("owner");
    await owner.getByLabel("Visible name").fill("Forms");
    await owner.getByLabel("System identifier").fill("forms");
    await owner.getByRole("button", { name: "Create connector" }).click();
    const connectorId = (await owner.locator("#connector-id").textContent())!.trim();
    await owner.context().close();

    const page = await signIn("member");
    await page.goto(`${env.server().url}/console/integrations/${connectorId}`);
    expect(await page.getByRole("button", { name: "Rotate secret" }).count()).toBe(0);
    expect(await page.locator("main").textContent()).toContain("Only an owner or admin can rotate");
    await check(page, "connector-as-member");
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const forged = await page.request.post(`${env.server().url}/console/integrations/${connectorId}/rotate`, {
      form: { _csrf: csrf, confirm: "yes" },
      headers: { origin: env.server().url },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    expect(MEMBER).toContain("@");
    await page.context().close();
  });

  it("Conversations and the contact: a thread with delivery and the window, then an opt-out on request", async () => {
    const { contact } = await seedWhatsAppThread(env.server().vitrina.storage, env.server().workspaceId, {
      now: new Date(),
      name: "Camila Rojas",
      phone: "+56922220001",
      inbound: "Hola, ¿sigue disponible el depto de Providencia?",
    });
    const page = await signIn("owner");
    await page.getByRole("link", { name: "Conversations" }).click();
    await check(page, "conversations");
    await page.getByRole("link", { name: "open", exact: true }).click();
    await page.getByRole("link", { name: "Camila Rojas" }).click();
    expect(await page.locator("ol.thread li").allTextContents()).toEqual([
      expect.stringContaining("sigue disponible"),
      expect.stringMatching(/Thanks for writing[\s\S]*Delivery: read/),
      expect.stringContaining("[reaction] 👍"),
      expect.stringMatching(/brochure[\s\S]*failed[\s\S]*131047: the 24-hour customer-service window is closed/),
    ]);
    expect(await page.locator("#service-window").textContent()).toMatch(/^\s*Open until/);
    await check(page, "conversation-thread");

    await page.getByRole("link", { name: "Camila Rojas" }).click();
    await page.waitForURL(`${env.server().url}/console/contacts/${contact.id}`);
    expect(await page.locator("#consent-state").textContent()).toContain("No consent on record");
    await check(page, "contact");
    await page.getByLabel("Note (optional)").fill("Phoned on Monday: no more messages");
    await page.getByRole("button", { name: "Opt out on request" }).click();
    expect(await page.getByRole("status").textContent()).toContain("Opt-out recorded");
    expect(await page.locator("#consent-state").textContent()).toContain("Opted out");
    const ledger = await page.locator("table tbody tr").allTextContents();
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatch(/opted out\s*console\s*owner@example\.com[\s\S]*note: Phoned on Monday/);
    expect(await page.getByRole("button", { name: "Opt out on request" }).count()).toBe(0);
    await check(page, "contact-opted-out");
    await page.context().close();
  });

  it("Contact data request: an owner downloads everything held about the person, then erases them; a member can't", async () => {
    const { contact } = await seedWhatsAppThread(env.server().vitrina.storage, env.server().workspaceId, {
      now: new Date(),
      name: "Ignacio Valdivia",
      phone: "+56922220002",
      inbound: "Quiero borrar mis datos, por favor",
    });
    const member = await signIn("member");
    await member.goto(`${env.server().url}/console/contacts/${contact.id}`);
    expect(await member.locator("#export-link").count()).toBe(0);
    expect(await member.locator("main").textContent()).toContain("Only an owner or admin can export or erase");
    const refused = await member.request.get(`${env.server().url}/console/contacts/${contact.id}/export`, {
      maxRedirects: 0,
    });
    expect(refused.status()).toBe(403);
    await member.context().close();

    const page = await signIn("owner");
    await page.goto(`${env.server().url}/console/contacts/${contact.id}`);
    await check(page, "contact-data-request");
    const [download] = await Promise.all([page.waitForEvent("download"), page.locator("#export-link").click()]);
    expect(download.suggestedFilename()).toBe(`contact-${contact.id}.json`);
    const exported = JSON.parse(await readFile((await download.path())!, "utf8"));
    expect(exported).toMatchObject({
      format: "vitrina.personal-data",
      version: 1,
      contact: { name: "Ignacio Valdivia" },
    });
    expect(exported.messages.map((m: { content: string }) => m.content)).toContain(
      "Quiero borrar mis datos, por favor",
    );

    await page.getByRole("button", { name: "Erase this person" }).click();
    // The box must be ticked first: the browser refuses the form without it.
    expect(page.url()).toBe(`${env.server().url}/console/contacts/${contact.id}`);
    await page.getByLabel("I understand this can't be undone").check();
    await page.getByRole("button", { name: "Erase this person" }).click();
    await page.waitForURL(`${env.server().url}/console/contacts/${contact.id}?notice=erased`);
    expect(await page.getByRole("status").textContent()).toContain("Erased");
    expect(await page.locator("main").textContent()).not.toContain("Ignacio Valdivia");
    await check(page, "contact-erased");
    await page.context().close();
  });

  it("WhatsApp channel: an owner sets it and sees the verify token once; a member reads and cannot post", async () => {
    const page = await signIn("owner");
    await page.getByRole("link", { name: "WhatsApp channel" }).click();
    expect(await page.locator("#callback-url").textContent()).toBe(`${env.server().url}/functions/v1/whatsapp-webhook`);
    await check(page, "whatsapp-channel-empty");
    await page.getByLabel("Phone number id").fill("109876543210");
    await page.getByLabel("Access token").fill("EAAG-browser-token");
    await page.getByLabel("App secret").fill("browser-app-secret");
    await page.getByLabel("Opt-out keywords").fill("basta\nalto");
    await page.getByRole("button", { name: "Save channel" }).click();
    const verifyToken = (await page.locator("#verify-token").textContent())!.trim();
    expect(verifyToken).toMatch(/^vtr_wv_/);
    expect(await page.locator("main").textContent()).toContain("Meta dashboard");
    await check(page, "whatsapp-channel-saved");
    const handshake = await fetch(
      `${env.server().url}/functions/v1/whatsapp-webhook?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=7`,
    );
    expect(await handshake.text()).toBe("7");
    await page.getByRole("link", { name: "WhatsApp channel" }).click();
    const content = await page.content();
    for (const secret of [verifyToken, "EAAG-browser-token", "browser-app-secret"])
      expect(content).not.toContain(secret);
    expect(await page.getByLabel("Opt-out keywords").inputValue()).toBe("basta\nalto");
    await page.context().close();

    const member = await signIn("member");
    await member.getByRole("link", { name: "WhatsApp channel" }).click();
    expect(await member.getByRole("button", { name: "Save channel" }).count()).toBe(0);
    expect(await member.locator("main").textContent()).toContain("Only an owner or admin can change");
    await check(member, "whatsapp-channel-as-member");
    const csrf = await member.locator('input[name="_csrf"]').first().inputValue();
    const forged = await member.request.post(`${env.server().url}/console/whatsapp`, {
      form: { _csrf: csrf, phoneNumberId: "1", appSecret: "member-secret" },
      headers: { origin: env.server().url },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    await member.context().close();
  });
});
