import { memoryStorage } from "@vitrina/adapter-memory";
import { vitrinaConsole } from "@vitrina/console";
import { describe, expect, it } from "vitest";
import { testVitrina } from "../../adapter-postgres/test/support.js";

describe("the console under basePath and publicUrl", () => {
  it("the console lives at <basePath>/console: links, assets, redirects and the intake URL carry the mount; over https the cookie is __Host- (Path=/, Secure)", async () => {
    let workspaceId = "";
    const vitrina = testVitrina(memoryStorage(), {
      basePath: "/vitrina",
      publicUrl: "https://shop.example.com",
      console: vitrinaConsole({ signIn: async () => ({ userId: "owner-1", workspaceId }) }),
    });
    workspaceId = (await vitrina.workspaces.create({ name: "Mounted", ownerUserId: "owner-1" })).id;
    const first = await vitrina.handler(new Request("http://10.0.0.5/vitrina/console/webhooks"));
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("/vitrina/console/sign-in?return_to=%2Fvitrina%2Fconsole%2Fwebhooks");
    const signedIn = await vitrina.handler(new Request(`http://10.0.0.5${first.headers.get("location")}`));
    expect(signedIn.headers.get("location")).toBe("/vitrina/console/webhooks");
    const setCookie = signedIn.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^__Host-vitrina_console=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=3600; Secure$/);
    const cookie = setCookie.split(";")[0]!;
    const list = await vitrina.handler(
      new Request("http://10.0.0.5/vitrina/console/integrations", { headers: { cookie } }),
    );
    const page = await list.text();
    expect(list.status).toBe(200);
    // Without the prefix (as a sibling subdomain could plant it) the same value is not honoured.
    const unprefixed = cookie.replace(/^__Host-/, "");
    const planted = new Request("http://10.0.0.5/vitrina/console/integrations", { headers: { cookie: unprefixed } });
    expect((await vitrina.handler(planted)).status).toBe(303);
    const assets = [...page.matchAll(/(?:href|src)="(\/vitrina\/console\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets).toHaveLength(2);
    for (const asset of assets)
      expect((await vitrina.handler(new Request(`http://10.0.0.5${asset}`))).status).toBe(200);
    expect(page).toContain('action="/vitrina/console/integrations"');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1]!;
    const created = await vitrina.handler(
      new Request("http://10.0.0.5/vitrina/console/integrations", {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ _csrf: csrf, name: "CRM", system: "crm" }),
      }),
    );
    expect(await created.text()).toContain("https://shop.example.com/vitrina/functions/v1/lead-intake");
  });
});
