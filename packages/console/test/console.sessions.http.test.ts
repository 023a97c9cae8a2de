import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordingLogger } from "../../http-node/test/support/recording-logger.js";
import { startAdminHarness, type AdminHarness } from "../../http-node/test/support/admin-harness.js";
import { consoleClient, testConsoleSignIn } from "./support/console-client.js";

const MINUTE = 60_000;

// Issue 40, items 6 to 8: sign-out that ends the session (every copy of the cookie), a shorter
// lifetime renewed while in use, a tossed second cookie refused, and no email in log lines.
describe("web console sessions: real sign-out, sliding renewal, tossed cookies, opaque log ids", () => {
  const { logger, entries } = recordingLogger();
  let h: AdminHarness;
  const ana = "ana@example.cl";

  async function signedIn(userId = ana) {
    const client = consoleClient(h.url);
    const answer = await client.get("/console/sign-in?return_to=%2Fconsole%2Fintegrations", { "x-test-user": userId });
    expect(answer.status).toBe(303);
    return client;
  }
  const connectorCount = async () => (await h.call("GET", "/v1/connectors", h.adminKey)).json.data.length;

  beforeAll(async () => {
    h = await startAdminHarness({ logger, console: testConsoleSignIn });
    await h.vitrina.workspaces.setMember(
      { userId: "owner-1" },
      { workspaceId: h.workspace.id, userId: ana, role: "admin" },
    );
  });
  afterAll(async () => {
    await h.close();
  });

  it("sign-out ends the session everywhere: a replayed cookie with the old page's CSRF token creates nothing", async () => {
    const client = await signedIn();
    const other = await signedIn(); // the same member in a second browser
    const page = await client.get("/console/integrations");
    const csrf = client.csrfOf(page.text);
    const stolen = client.cookie!;
    const out = await client.post("/console/sign-out", { _csrf: csrf });
    expect(out.status).toBe(200);
    const before = await connectorCount();
    const replay = consoleClient(h.url);
    replay.cookie = stolen;
    const created = await replay.post("/console/integrations", { _csrf: csrf, name: "After sign-out", system: "late" });
    expect(created.status).toBe(303);
    expect(created.location).toMatch(/^\/console\/sign-in\?return_to=/);
    expect(await connectorCount()).toBe(before);
    expect(entries.some((e) => e.fields.code === "session_ended")).toBe(true);
    // The second browser is signed out too, and sent to sign in (no redirect loop: sign-in starts anew).
    const elsewhere = await other.get("/console/integrations");
    expect(elsewhere.status).toBe(303);
    const again = await other.get(elsewhere.location!, { "x-test-user": ana });
    expect(again.status).toBe(303);
    expect(again.location).toBe("/console/integrations");
    expect((await other.get("/console/integrations")).status).toBe(200);
    // A stale cookie's sign-out ends nothing else: the new session lives on.
    const stale = consoleClient(h.url);
    stale.cookie = stolen;
    await stale.post("/console/sign-out", { _csrf: csrf });
    expect((await other.get("/console/integrations")).status).toBe(200);
    expect(page.text).toContain("Sign out everywhere");
    expect(out.text).toContain("on every device");
  });

  it("lasts an hour unused by default, renewed while in use, and never past 8 hours from sign-in", async () => {
    const client = await signedIn();
    expect(client.lastSetCookie).toMatch(
      /^vitrina_console=[^;]+; Path=\/console; HttpOnly; SameSite=Lax; Max-Age=3600$/,
    );
    h.clock.advance(20 * MINUTE);
    const fresh = client.lastSetCookie;
    expect((await client.get("/console/integrations")).status).toBe(200);
    expect(client.lastSetCookie).toBe(fresh); // less than half the lifetime used: no new cookie
    // Used every 35 minutes: renewed each time, until the renewal would pass 8 hours from sign-in.
    for (let i = 0; i < 12; i++) {
      h.clock.advance(35 * MINUTE);
      const page = await client.get("/console/integrations");
      expect(page.status).toBe(200);
      expect(page.headers.get("set-cookie"), `renewal ${i}`).toMatch(/^vitrina_console=[^;]+; Path=\/console;/);
    }
    h.clock.advance(35 * MINUTE); // 7 h 55 min: still in, with nothing left to renew
    const last = await client.get("/console/integrations");
    expect(last.status).toBe(200);
    expect(last.headers.get("set-cookie")).toBeNull();
    h.clock.advance(35 * MINUTE); // 8 h 30 min after sign-in: ended
    expect((await client.get("/console/integrations")).status).toBe(303);
    const idle = await signedIn();
    h.clock.advance(61 * MINUTE);
    expect((await idle.get("/console/integrations")).status).toBe(303);
  });

  it("refuses a request carrying two session cookies (a tossed one sent first), and writes nothing", async () => {
    const planted = await signedIn("owner-1");
    const victim = await signedIn();
    const page = await victim.get("/console/integrations");
    const own = victim.cookie!;
    const before = await connectorCount();
    victim.cookie = `${planted.cookie!}; ${victim.cookie!}`;
    entries.length = 0;
    const posted = await victim.post("/console/integrations", {
      _csrf: victim.csrfOf(page.text),
      name: "Tossed",
      system: "tossed",
    });
    expect(posted.status).toBe(400);
    expect(posted.text).toContain("two console session cookies");
    expect(posted.headers.get("set-cookie")).toMatch(/^vitrina_console=; Path=\/console;.*Max-Age=0/);
    expect(await connectorCount()).toBe(before);
    expect(entries.find((e) => e.message === "console request refused")?.fields).toMatchObject({
      code: "duplicate_session_cookie",
    });
    const both = consoleClient(h.url);
    both.cookie = `${own}; ${planted.cookie!}`;
    expect((await both.get("/console/integrations")).status).toBe(400);
    both.cookie = `${own}; ${planted.cookie!}`; // the refusal cleared ours; the planted one would stay
    expect((await both.get("/console/sign-in", { "x-test-user": ana })).status).toBe(400);
  });

  it("names the member in log lines by an opaque id, never by the user id (an email)", async () => {
    entries.length = 0;
    const client = await signedIn();
    const page = await client.get("/console/integrations");
    await client.post("/console/integrations", { _csrf: client.csrfOf(page.text), name: "Logged", system: "logged" });
    await client.post("/console/integrations", { _csrf: "forged", name: "x", system: "x" });
    await consoleClient(h.url).get("/console/sign-in", { "x-test-user": "stranger@example.cl" });
    await client.post("/console/sign-out", { _csrf: client.csrfOf(page.text) });
    const messages = entries.map((e) => e.message);
    expect(messages).toEqual(
      expect.arrayContaining(["console: signed in", "console: connector created", "console request refused"]),
    );
    const text = JSON.stringify(entries);
    expect(text).not.toContain("@example.cl");
    expect(messages).toContain("console: signed out everywhere");
    const refs = new Set(entries.map((e) => e.fields.memberRef).filter((r) => r !== undefined));
    expect([...refs].every((r) => /^mbr_[0-9a-f]{16}$/.test(String(r)))).toBe(true);
    const signIn = entries.find((e) => e.message === "console: signed in")!;
    const created = entries.find((e) => e.message === "console: connector created")!;
    expect(created.fields.memberRef).toBe(signIn.fields.memberRef);
  });
});
