import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryStorage } from "@vitrina/adapter-memory";
import { vitrinaConsole } from "@vitrina/console";
import type { Storage } from "@vitrina/core";
import { hostileString, percentEncode } from "../../core/test/support/hostile-strings.js";
import { backends, openTestStorage, testVitrina } from "../../adapter-postgres/test/support.js";

// The console's form posts from an untrusted browser, with U+0000, lone surrogates (as the WTF-8
// bytes a client could send) and junk in every field: each post is answered with a page, never a
// 500, and a refused post leaves nothing behind (no half-written connector, key, member or endpoint).
const RUNS = 40;
const ORIGIN = "http://vitrina.test";

describe.each(["memory", ...backends] as const)("console form posts on %s", (backend) => {
  let storage: Storage;
  let vitrina: ReturnType<typeof testVitrina>;
  let workspaceId = "";
  let cookie = "";
  let csrf = "";
  beforeAll(async () => {
    storage = backend === "memory" ? memoryStorage() : (await openTestStorage(backend)).storage;
    vitrina = testVitrina(storage, {
      console: vitrinaConsole({ signIn: async () => ({ userId: "owner-1", workspaceId }) }),
    });
    workspaceId = (await vitrina.workspaces.create({ name: "hostile", ownerUserId: "owner-1" })).id;
    const signedIn = await vitrina.handler(new Request(`${ORIGIN}/console/sign-in`));
    cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
    const page = await (
      await vitrina.handler(new Request(`${ORIGIN}/console/integrations`, { headers: { cookie } }))
    ).text();
    csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1]!;
  });
  afterAll(async () => {
    await storage.close();
  });

  const counts = async () => ({
    connectors: (await storage.connectors.listByWorkspace(workspaceId)).length,
    keys: (await storage.apiKeys.listByWorkspace(workspaceId)).length,
    members: (await storage.members.list(workspaceId)).length,
    endpoints: (await storage.webhookSubscriptions.listByWorkspace(workspaceId)).length,
  });
  const text = () =>
    fc.oneof(hostileString({ maxLength: 20 }), fc.constantFrom("ok name", "crm-1", "a@b.cl", "admin", ""));
  const pairs = (fields: string[]) =>
    fc.tuple(
      ...fields.map((f) => fc.array(text(), { maxLength: 2 }).map((values) => values.map((v) => [f, v] as const))),
    );
  const forms = {
    "/console/integrations": pairs(["name", "system"]),
    "/console/settings/api-keys": pairs(["name", "scopes", "scopes"]),
    "/console/settings/members": pairs(["email", "role"]),
    "/console/settings/members/owner-1/role": pairs(["role"]),
    "/console/webhooks": pairs(["url", "events"]),
  };

  for (const [path, form] of Object.entries(forms)) {
    it(`POST ${path}: hostile fields never give a 500 or a half-written record (${RUNS} runs)`, async () => {
      await fc.assert(
        fc.asyncProperty(form, async (groups) => {
          const before = await counts();
          const body = [["_csrf", csrf] as const, ...groups.flat()]
            .map(([k, v]) => `${k}=${percentEncode(v)}`)
            .join("&");
          const response = await vitrina.handler(
            new Request(`${ORIGIN}${path}`, {
              method: "POST",
              headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
              body,
            }),
          );
          expect(response.status).toBeLessThan(500);
          expect(response.headers.get("content-type")).toMatch(/^text\/html/);
          if (response.status >= 400) expect(await counts()).toEqual(before);
        }),
        { numRuns: RUNS },
      );
    });
  }
});
