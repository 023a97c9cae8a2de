import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordingLogger } from "../../http-node/test/support/recording-logger.js";
import { startAdminHarness, type AdminHarness } from "../../http-node/test/support/admin-harness.js";
import {
  consoleClient,
  TEST_LOGIN_URL as LOGIN_URL,
  testConsoleSignIn as testSignIn,
} from "./support/console-client.js";
import { sampleLead } from "../../http-node/test/support/lead-harness.js";

const run = promisify(execFile);

const secretOf = (html: string, id: string) => new RegExp(`id="${id}">([^<]+)<`).exec(html)?.[1] ?? "";
const unescape = (text: string) =>
  text
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

describe("web console over a real socket (sessions, CSRF, roles, secrets once)", () => {
  const { logger, entries } = recordingLogger();
  let h: AdminHarness;

  async function signedIn(userId: string) {
    const client = consoleClient(h.url);
    const answer = await client.get("/console/sign-in?return_to=%2Fconsole%2Fintegrations", { "x-test-user": userId });
    expect(answer.status).toBe(303);
    return client;
  }

  beforeAll(async () => {
    h = await startAdminHarness({ logger, console: testSignIn, members: ["mia"] });
  });
  afterAll(async () => {
    await h.close();
  });

  it("sends a visitor without a session to sign-in, then to the embedder's login URL, and back only into the console", async () => {
    const client = consoleClient(h.url);
    const first = await client.get("/console/webhooks?x=1");
    expect(first.status).toBe(303);
    expect(first.location).toBe("/console/sign-in?return_to=%2Fconsole%2Fwebhooks%3Fx%3D1");
    const login = await client.get(first.location!);
    expect(login.status).toBe(303);
    const target = new URL(login.location!);
    expect(`${target.origin}${target.pathname}`).toBe(LOGIN_URL);
    expect(target.searchParams.get("return_to")).toBe(
      `${h.url}/console/sign-in?return_to=%2Fconsole%2Fwebhooks%3Fx%3D1`,
    );
    for (const hostile of [
      "//evil.example/x",
      "https://evil.example/",
      "/console/..//evil",
      "/elsewhere",
      "/console\\evil",
    ]) {
      const back = await consoleClient(h.url).get(`/console/sign-in?return_to=${encodeURIComponent(hostile)}`, {
        "x-test-user": "owner-1",
      });
      expect(back.status).toBe(303);
      expect(back.location).toBe("/console/integrations");
    }
  });

  it("sets an HttpOnly, SameSite cookie scoped to the console, and refuses a user who is not a member", async () => {
    const client = await signedIn("owner-1");
    expect(client.lastSetCookie).toMatch(
      /^vitrina_console=v1\.[^;]+; Path=\/console; HttpOnly; SameSite=Lax; Max-Age=3600$/,
    );
    const page = await client.get("/console/integrations");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("cache-control")).toBe("no-store");
    const stranger = await consoleClient(h.url).get("/console/sign-in", { "x-test-user": "stranger" });
    expect(stranger.status).toBe(403);
    expect(stranger.text).toContain("stranger is not a member of this workspace");
  });

  it("creates a connector, shows its secret once, and that secret signs a lead; rotation needs a confirmation", async () => {
    const client = await signedIn("owner-1");
    const list = await client.get("/console/integrations");
    const created = await client.post("/console/integrations", {
      _csrf: client.csrfOf(list.text),
      name: "HubSpot <b>",
      system: "hubspot",
    });
    expect(created.status).toBe(200);
    expect(created.text).toContain("HubSpot &lt;b&gt;");
    const secret = secretOf(created.text, "connector-secret");
    expect(secret).toMatch(/^vtr_cs_/);
    const id = secretOf(created.text, "connector-id");
    expect(created.text).toContain(`${h.url}/functions/v1/lead-intake`);
    const again = await client.get(`/console/integrations/${id}`);
    expect(again.text).not.toContain(secret);
    expect((await h.sendLead(`${h.url}/functions/v1/lead-intake`, id, secret, sampleLead())).status).toBe(200);
    const unconfirmed = await client.post(`/console/integrations/${id}/rotate`, { _csrf: client.csrfOf(again.text) });
    expect(unconfirmed.status).toBe(422);
    expect(unconfirmed.text).toContain("tick the box");
    const rotated = await client.post(`/console/integrations/${id}/rotate`, {
      _csrf: client.csrfOf(again.text),
      confirm: "yes",
    });
    const fresh = secretOf(rotated.text, "connector-secret");
    expect(fresh).toMatch(/^vtr_cs_/);
    expect(fresh).not.toBe(secret);
    expect((await h.sendLead(`${h.url}/functions/v1/lead-intake`, id, secret, sampleLead())).status).toBe(401);
    expect((await h.sendLead(`${h.url}/functions/v1/lead-intake`, id, fresh, sampleLead())).status).toBe(200);
    const withLeads = await client.get(`/console/integrations/${id}`);
    expect(withLeads.text.match(/<code>crm-\d+-\d+<\/code>/g)?.length).toBe(2);
  });

  it("shows a ready-to-run signed curl snippet that the intake accepts", async () => {
    const client = await signedIn("owner-1");
    const list = await client.get("/console/integrations");
    const created = await client.post("/console/integrations", {
      _csrf: client.csrfOf(list.text),
      name: "Web form",
      system: "web-form",
    });
    const script = unescape(/<pre id="snippet-curl">([\s\S]*?)<\/pre>/.exec(created.text)![1]!);
    const { stdout } = await run("bash", ["-c", script], { timeout: 10_000 });
    expect(JSON.parse(stdout)).toMatchObject({ accepted: true, duplicate: false });
  });

  it("refuses a post without the session's CSRF token, or from another site, and writes nothing", async () => {
    const client = await signedIn("owner-1");
    const before = (
      await h.vitrina.admin.connectors.list(
        {
          workspaceId: h.workspace.id,
          role: "owner",
          principal: { kind: "static", workspaceId: h.workspace.id, keyId: "t", scopes: [] },
        },
        { limit: 100 },
      )
    ).data.length;
    const page = await client.get("/console/integrations");
    const token = client.csrfOf(page.text);
    expect((await client.post("/console/integrations", { name: "A", system: "a" })).status).toBe(403);
    expect((await client.post("/console/integrations", { _csrf: `${token}x`, name: "A", system: "a" })).status).toBe(
      403,
    );
    expect(
      (
        await client.post(
          "/console/integrations",
          { _csrf: token, name: "A", system: "a" },
          { origin: "https://evil.example" },
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await client.post(
          "/console/integrations",
          { _csrf: token, name: "A", system: "a" },
          { "sec-fetch-site": "cross-site" },
        )
      ).status,
    ).toBe(403);
    const other = await signedIn("owner-1");
    expect((await other.post("/console/integrations", { _csrf: token, name: "A", system: "a" })).status).toBe(403);
    const after = (
      await h.vitrina.admin.connectors.list(
        {
          workspaceId: h.workspace.id,
          role: "owner",
          principal: { kind: "static", workspaceId: h.workspace.id, keyId: "t", scopes: [] },
        },
        { limit: 100 },
      )
    ).data.length;
    expect(after).toBe(before);
    const refused = entries.filter((e) => e.message === "console request refused" && e.fields.code === "csrf");
    expect(refused.length).toBeGreaterThanOrEqual(5);
    expect(JSON.stringify(refused)).not.toContain(token);
  });

  it("a member reads but gets no forms, and is refused (403) when posting a rotation anyway", async () => {
    const owner = await signedIn("owner-1");
    const list = await owner.get("/console/integrations");
    const created = await owner.post("/console/integrations", {
      _csrf: owner.csrfOf(list.text),
      name: "Member test",
      system: "member-test",
    });
    const id = secretOf(created.text, "connector-id");
    const mia = await signedIn("mia");
    const seen = await mia.get(`/console/integrations/${id}`);
    expect(seen.status).toBe(200);
    expect(seen.text).not.toContain("Rotate secret");
    expect(seen.text).toContain("Only an owner or admin can rotate");
    entries.length = 0;
    const refused = await mia.post(`/console/integrations/${id}/rotate`, {
      _csrf: mia.csrfOf(seen.text),
      confirm: "yes",
    });
    expect(refused.status).toBe(403);
    expect(entries.find((e) => e.message === "console request refused")?.fields).toMatchObject({
      code: "forbidden",
      route: "console.integrations.rotate",
      memberRef: expect.stringMatching(/^mbr_[0-9a-f]{16}$/),
    });
    for (const path of ["/console/settings/api-keys", "/console/settings/members", "/console/webhooks"]) {
      const screen = await mia.get(path);
      expect(screen.status).toBe(200);
      expect(screen.text).not.toMatch(/<form class="panel"/);
    }
  });

  it("ends a session on sign-out, on expiry, and on a tampered cookie", async () => {
    const client = await signedIn("owner-1");
    const page = await client.get("/console/integrations");
    const out = await client.post("/console/sign-out", { _csrf: client.csrfOf(page.text) });
    expect(out.status).toBe(200);
    expect(client.lastSetCookie).toMatch(/^vitrina_console=; Path=\/console; HttpOnly; SameSite=Lax; Max-Age=0$/);
    expect((await client.get("/console/integrations")).status).toBe(303);
    const tampered = await signedIn("owner-1");
    tampered.cookie = `${tampered.cookie!.slice(0, -4)}AAAA`;
    expect((await tampered.get("/console/integrations")).status).toBe(303);
    const expiring = await signedIn("owner-1");
    h.clock.advance(8 * 60 * 60 * 1000 + 1);
    expect((await expiring.get("/console/integrations")).status).toBe(303);
  });

  it("issues an API key shown once that works, and revokes it (refused at once)", async () => {
    const client = await signedIn("owner-1");
    const page = await client.get("/console/settings/api-keys");
    const issued = await client.post("/console/settings/api-keys", {
      _csrf: client.csrfOf(page.text),
      name: "ERP sync",
      scopes: ["webhooks:read", "admin:read"],
    });
    expect(issued.status).toBe(200);
    const key = secretOf(issued.text, "api-key");
    expect(key).toMatch(/^vtr_/);
    expect((await h.call("GET", "/v1/webhooks", key)).status).toBe(200);
    const id = (await h.call("GET", "/v1/api-keys", h.adminKey)).json.data.find(
      (k: { name: string }) => k.name === "ERP sync",
    ).id;
    const listed = await client.get("/console/settings/api-keys");
    expect(listed.text).not.toContain(key);
    const revoked = await client.post(`/console/settings/api-keys/${id}/revoke`, { _csrf: client.csrfOf(listed.text) });
    expect(revoked.text).toContain("revoked");
    expect((await h.call("GET", "/v1/webhooks", key)).status).toBe(401);
    const bad = await client.post("/console/settings/api-keys", {
      _csrf: client.csrfOf(listed.text),
      name: "x\u0000y",
      scopes: ["nope"],
    });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain("<strong>name</strong>");
  });

  it("manages members and never removes the last owner", async () => {
    const client = await signedIn("owner-1");
    const page = await client.get("/console/settings/members");
    const added = await client.post("/console/settings/members", {
      _csrf: client.csrfOf(page.text),
      email: "Ana@Example.com",
      role: "admin",
    });
    expect(added.text).toContain("ana@example.com added as admin");
    const demoted = await client.post("/console/settings/members/owner-1/role", {
      _csrf: client.csrfOf(page.text),
      role: "member",
    });
    expect(demoted.status).toBe(422);
    expect(demoted.text).toMatch(/owner/);
    const removed = await client.post("/console/settings/members/ana%40example.com/remove", {
      _csrf: client.csrfOf(page.text),
    });
    expect(removed.text).toContain("ana@example.com removed");
  });
});
