import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAdminHarness, type AdminHarness } from "../../http-node/test/support/admin-harness.js";
import { consoleClient, testConsoleSignIn } from "./support/console-client.js";
import { recordingLogger } from "../../http-node/test/support/recording-logger.js";
import { seedWhatsAppThread } from "../../http-node/test/support/whatsapp-thread-seed.js";

/** A name a hostile lead could carry: markup, both quotes, and 10 KB of it. */
const HOSTILE_NAME = `<script>alert("x")</script>'"${"Ñ<b>".repeat(2_500)}`;
const HOSTILE_TEXT = `<img src=x onerror=alert(1)> "hola" & 'chau'`;

describe("console: conversations, contacts and the WhatsApp channel over a real socket", () => {
  const { logger, entries } = recordingLogger();
  let h: AdminHarness;
  let hostile: Awaited<ReturnType<typeof seedWhatsAppThread>>;
  let quiet: Awaited<ReturnType<typeof seedWhatsAppThread>>;

  async function signedIn(userId: string) {
    const client = consoleClient(h.url);
    expect((await client.get("/console/sign-in", { "x-test-user": userId })).status).toBe(303);
    return client;
  }

  beforeAll(async () => {
    h = await startAdminHarness({ logger, console: testConsoleSignIn, members: ["mia"] });
    const now = h.clock.now();
    hostile = await seedWhatsAppThread(h.storage, h.workspace.id, {
      now,
      name: HOSTILE_NAME,
      phone: "+56911110001",
      inbound: HOSTILE_TEXT,
    });
    quiet = await seedWhatsAppThread(h.storage, h.workspace.id, {
      now,
      name: null,
      phone: "+56911110002",
      inbound: "¿Sigue disponible el depto?",
      status: "pending",
      lastInboundHoursAgo: 30,
    });
  });
  afterAll(async () => {
    await h.close();
  });

  it("lists conversations by status, escaping the contact's name", async () => {
    const client = await signedIn("mia");
    const all = await client.get("/console/conversations");
    expect(all.status).toBe(200);
    expect(all.text).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&quot;Ñ&lt;b&gt;");
    expect(all.text).not.toContain("<script>alert");
    expect(all.text).not.toContain("Ñ<b>");
    expect(all.text).toContain(`href="/console/conversations/${hostile.conversationId}"`);
    const pending = await client.get("/console/conversations?status=pending");
    expect(pending.text).toContain("+56911110002");
    expect(pending.text).not.toContain("+56911110001");
    expect(pending.text).toMatch(/<a\s+href="\/console\/conversations\?status=pending"\s+aria-current="page"/);
    expect((await client.get("/console/conversations?status=closed")).text).toContain("No closed conversations");
    const bogus = await client.get("/console/conversations?status=%3Cb%3E");
    expect(bogus.status).toBe(422);
    expect(bogus.text).toContain("must be one of open, pending, closed");
  });

  it("shows a thread in time order with delivery, failures in plain words, and the service window", async () => {
    const client = await signedIn("mia");
    const thread = await client.get(`/console/conversations/${hostile.conversationId}`);
    expect(thread.status).toBe(200);
    const order = [
      "&lt;img src=x onerror=alert(1)&gt; &quot;hola&quot; &amp; &#39;chau&#39;",
      "Thanks for writing",
      "[reaction] 👍",
      "Our brochure, as promised.",
    ].map((text) => thread.text.indexOf(text));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(thread.text).not.toContain("<img src=x");
    expect(thread.text).toMatch(/<span class="status-ok">read<\/span> \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ/);
    expect(thread.text).toContain("WhatsApp error 131047: the 24-hour customer-service window is closed");
    expect(thread.text).toContain(`in reply to <code>${hostile.providerMessageIds.read}</code>`);
    expect(thread.text).toMatch(/<dd id="service-window"><span class="status-ok">Open<\/span> until/);
    expect(thread.text).toContain(`href="/console/contacts/${hostile.contact.id}"`);
    const closed = await client.get(`/console/conversations/${quiet.conversationId}`);
    expect(closed.text).toMatch(/<span class="status-bad">Closed<\/span> since/);
    expect(closed.text).toContain("Conversation with +56911110002");
    expect((await client.get("/console/conversations/nope")).status).toBe(404);
  });

  it("shows the contact's consent; a member gets no opt-out form and a forged post is refused 403", async () => {
    const mia = await signedIn("mia");
    const page = await mia.get(`/console/contacts/${hostile.contact.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("CL.56911110001");
    expect(page.text).toContain("No consent on record");
    expect(page.text).toContain("No consent changes recorded yet.");
    expect(page.text).not.toContain("Opt out on request</button>");
    expect(page.text).toContain("Only an owner or admin can record an opt-out.");
    entries.length = 0;
    const forged = await mia.post(`/console/contacts/${hostile.contact.id}/opt-out`, { _csrf: mia.csrfOf(page.text) });
    expect(forged.status).toBe(403);
    expect(entries.find((e) => e.message === "console request refused")?.fields).toMatchObject({
      code: "forbidden",
      route: "console.contacts.opt_out",
      memberRef: expect.stringMatching(/^mbr_[0-9a-f]{16}$/),
    });
    expect(await h.vitrina.contacts.consentLedger(h.workspace.id, hostile.contact.id)).toEqual([]);
    expect((await mia.get("/console/contacts/nope")).status).toBe(404);
  });

  it("an owner opts a contact out on request (CSRF checked), and the page shows the state and the ledger entry", async () => {
    const owner = await signedIn("owner-1");
    const path = `/console/contacts/${hostile.contact.id}`;
    const page = await owner.get(path);
    expect(page.text).toContain("Opt out on request</button>");
    expect((await owner.post(`${path}/opt-out`, { note: "x" })).status).toBe(403);
    const tooLong = await owner.post(`${path}/opt-out`, { _csrf: owner.csrfOf(page.text), note: "n".repeat(501) });
    expect(tooLong.status).toBe(422);
    expect(tooLong.text).toContain("<strong>note</strong>: must be at most 500 characters");
    const done = await owner.post(`${path}/opt-out`, {
      _csrf: owner.csrfOf(page.text),
      note: `phoned <b>"today"</b>`,
    });
    expect(done.status).toBe(303);
    expect(done.location).toBe(`${path}?notice=opted_out`);
    const after = await owner.get(done.location!);
    expect(after.text).toContain("Opt-out recorded");
    expect(after.text).toMatch(/<dd id="consent-state">\s*<span class="status-bad">Opted out<\/span> since/);
    expect(after.text).toContain("<td>opted out</td>");
    expect(after.text).toContain("<td>console</td>");
    expect(after.text).toContain("<code>owner-1</code>");
    expect(after.text).toContain("request: off_channel<br />note: phoned &lt;b&gt;&quot;today&quot;&lt;/b&gt;");
    expect(after.text).not.toContain("Opt out on request</button>");
    expect((await owner.post("/console/contacts/nope/opt-out", { _csrf: owner.csrfOf(page.text) })).status).toBe(404);
    const [entry] = await h.vitrina.contacts.consentLedger(h.workspace.id, hostile.contact.id);
    expect(entry).toMatchObject({ kind: "opted_out", source: "console", sourceRef: "owner-1" });
  });

  it("sets the WhatsApp channel: member reads only, errors by field, verify token once, secrets never echoed", async () => {
    const mia = await signedIn("mia");
    const empty = await mia.get("/console/whatsapp");
    expect(empty.status).toBe(200);
    expect(empty.text).toContain("No WhatsApp channel yet");
    expect(empty.text).toContain(`<code id="callback-url">${h.url}/functions/v1/whatsapp-webhook</code`);
    expect(empty.text).not.toMatch(/<form class="panel"/);
    const forged = await mia.post("/console/whatsapp", {
      _csrf: mia.csrfOf(empty.text),
      phoneNumberId: "1234",
      appSecret: "app-secret-of-mia",
    });
    expect(forged.status).toBe(403);
    expect(await h.vitrina.whatsapp.channels.get(h.workspace.id)).toBeNull();

    const owner = await signedIn("owner-1");
    const form = await owner.get("/console/whatsapp");
    const csrf = owner.csrfOf(form.text);
    expect((await owner.post("/console/whatsapp", { phoneNumberId: "1234", appSecret: "s3cret-app" })).status).toBe(
      403,
    );
    const refused = await owner.post("/console/whatsapp", {
      _csrf: csrf,
      phoneNumberId: `<script>"1"</script>`,
      accessToken: "EAAG-token-never-echoed",
      apiVersion: "21",
      optOutKeywords: "stop, !!!",
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain("<strong>Phone number id</strong>: must be the provider&#39;s phone number id");
    expect(refused.text).toContain("<strong>Graph API version</strong>: must look like v21.0");
    expect(refused.text).toContain("<strong>Opt-out keywords, item 2</strong>: must contain a letter or a digit");
    expect(refused.text).toContain('value="&lt;script&gt;&quot;1&quot;&lt;/script&gt;"');
    expect(refused.text).not.toContain("EAAG-token-never-echoed");

    const saved = await owner.post("/console/whatsapp", {
      _csrf: csrf,
      phoneNumberId: "109876543210",
      accessToken: "EAAG-token-never-echoed",
      appSecret: "app-secret-never-echoed",
      optOutKeywords: "basta\n<b>alto</b>",
    });
    expect(saved.status).toBe(200);
    const verifyToken = /id="verify-token">([^<]+)</.exec(saved.text)?.[1] ?? "";
    expect(verifyToken).toMatch(/^vtr_wv_/);
    expect(saved.text).toContain("Meta dashboard");
    expect(saved.text).toContain("<code>cloud_api</code>");
    expect(saved.text).toContain("<code>&lt;b&gt;alto&lt;/b&gt;</code>");
    for (const secret of ["EAAG-token-never-echoed", "app-secret-never-echoed"])
      expect(saved.text).not.toContain(secret);
    const handshake = await fetch(
      `${h.url}/functions/v1/whatsapp-webhook?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=42`,
    );
    expect([handshake.status, await handshake.text()]).toEqual([200, "42"]);

    const again = await owner.get("/console/whatsapp");
    expect(again.text).not.toContain(verifyToken);
    expect(again.text).toContain("<code>109876543210</code>");
    const changed = await owner.post("/console/whatsapp", {
      _csrf: csrf,
      phoneNumberId: "109876543210",
      removeAccessToken: "yes",
      optOutKeywords: "",
    });
    expect(changed.status).toBe(200);
    expect(changed.text).not.toContain('id="verify-token"');
    expect(changed.text).toContain("<code>messaging_transport</code>");
    expect(changed.text).toContain("(the defaults)");
    expect((await mia.get("/console/whatsapp")).text).not.toContain(verifyToken);
  });
});
