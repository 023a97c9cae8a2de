import { demoConsentPage } from "@vitrina/core/demo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OWNER, startOAuthHarness, type OAuthHarness } from "./support/oauth-harness.js";

describe("demoConsentPage", () => {
  let h: OAuthHarness;
  let clientId: string;
  beforeAll(async () => {
    let workspaceId = "";
    const page = (request: Request, context: Parameters<ReturnType<typeof demoConsentPage>>[1]) =>
      demoConsentPage({ userId: OWNER, workspaceId })(request, context);
    h = await startOAuthHarness({ authorize: page });
    workspaceId = h.workspace.id;
    clientId = (await h.register({ client_name: "<b>Claude</b>" })).json.client_id;
  });
  afterAll(async () => h?.close());

  it("shows the client and scopes on GET, escaped", async () => {
    const { response } = await h.authorize(clientId, { scope: "catalog:read" });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("&lt;b&gt;Claude&lt;/b&gt;");
    expect(html).toContain("<code>catalog:read</code>");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
  });

  it("approves on POST back to the same URL, and denies with access_denied", async () => {
    const { response } = await h.authorize(clientId, { scope: "catalog:read" });
    const post = (decision: string) =>
      fetch(response.url, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `decision=${decision}`,
      });
    const approved = new URL((await post("approve")).headers.get("location")!);
    expect(approved.searchParams.get("code")).toMatch(/^vtr_ac_/);
    expect(approved.searchParams.get("state")).toBe("st-123");
    const denied = new URL((await post("deny")).headers.get("location")!);
    expect(Object.fromEntries(denied.searchParams)).toMatchObject({ error: "access_denied", state: "st-123" });
  });
});
