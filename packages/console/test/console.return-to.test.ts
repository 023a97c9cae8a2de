import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vitrinaConsole } from "@vitrina/console";
import { startAdminHarness, type AdminHarness } from "../../http-node/test/support/admin-harness.js";
import { consoleClient } from "./support/console-client.js";

/** The embedder's hook: the user is whoever `x-test-user` names. */
const testSignIn = (workspaceId: () => string) =>
  vitrinaConsole({
    async signIn(request) {
      const user = request.headers.get("x-test-user");
      return user === null ? null : { userId: user, workspaceId: workspaceId() };
    },
  });

// `return_to` comes from a link anyone can craft. Whatever it holds, sign-in answers with a
// redirect whose Location a header can carry (never a 500), and only to a page under the console.
describe("console sign-in: return_to is a safe Location whatever the link holds", () => {
  let h: AdminHarness;
  beforeAll(async () => {
    h = await startAdminHarness({ console: testSignIn });
  });
  afterAll(async () => {
    await h.close();
  });

  const signIn = (returnTo: string, client = consoleClient(h.url)) =>
    client.get(`/console/sign-in?return_to=${encodeURIComponent(returnTo)}`, { "x-test-user": "owner-1" });

  it("percent-encodes characters a header can't carry (emoji, U+0085, a line break), signed in or signing in", async () => {
    const cases: Array<[string, string]> = [
      ["/console/webhooks?q=😀", "/console/webhooks?q=%F0%9F%98%80"],
      ["/console/caf\u00e9\u0085", "/console/caf%C3%A9%C2%85"],
      ["/console/integrations\n?x=1", "/console/integrations?x=1"],
    ];
    const already = consoleClient(h.url);
    expect((await signIn("/console/integrations", already)).status).toBe(303);
    for (const [hostile, expected] of cases) {
      for (const answer of [await signIn(hostile), await signIn(hostile, already)]) {
        expect({ hostile, status: answer.status }).toEqual({ hostile, status: 303 });
        expect(answer.location).toBe(expected);
      }
    }
  });

  it("resolves dot segments (plain or percent-encoded) before deciding the page is under the console", async () => {
    for (const hostile of [
      "/console/../elsewhere",
      "/console/%2e%2E/elsewhere",
      "/console/a/../../x",
      "/console/\t/evil.example",
    ]) {
      const answer = await signIn(hostile);
      expect({ hostile, status: answer.status, location: answer.location }).toEqual({
        hostile,
        status: 303,
        location: "/console/integrations",
      });
    }
    expect((await signIn("/console/./webhooks")).location).toBe("/console/webhooks");
  });
});
