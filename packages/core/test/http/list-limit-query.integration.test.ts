import { memoryStorage } from "@vitrina/adapter-memory";
import type { Storage } from "@vitrina/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends, openTestStorage, testVitrina } from "../../../adapter-postgres/test/support.js";
import { openHandler } from "../support/handler-server.js";

// `?limit=` is read as plain decimal digits on every list: `Number()` alone took `0x10` as 16, `1e2`
// as 100, ` 5`, `+5` and `5.0` as 5, so a typo or a client's odd encoding paged silently.
const NOT_DECIMAL = ["0x10", "1e2", "1e1", " 5", "5 ", "+5", "5.0", "0b1", "0o7", "1_0", "Infinity"];

describe.each(["memory", ...backends] as const)("?limit= on list endpoints (%s)", (backend) => {
  let storage: Storage;
  let server: Awaited<ReturnType<typeof openHandler>>;
  let key = "";
  let lists: string[] = [];
  beforeAll(async () => {
    storage = backend === "memory" ? memoryStorage() : (await openTestStorage(backend)).storage;
    const vitrina = testVitrina(storage, { rest: { enabled: true }, webhooks: { externalWorker: true } });
    const workspaceId = (await vitrina.workspaces.create({ name: "limits", ownerUserId: "owner-1" })).id;
    key = (
      await vitrina.apiKeys.issue({ userId: "owner-1" }, workspaceId, {
        name: "lists",
        scopes: ["admin:read", "webhooks:read", "webhooks:write", "catalog:read"],
      })
    ).secret;
    const subscription = await vitrina.webhooks.create(workspaceId, {
      url: "https://erp.example.com/hooks",
      events: ["quote.created"],
      secret: "whsec_0123456789abcdefghijklmnop",
    });
    const connector = await vitrina.connectors.create(
      { userId: "owner-1" },
      { workspaceId, name: "CRM", systemId: "crm" },
    );
    lists = [
      "/v1/connectors",
      `/v1/connectors/${connector.connector.id}/leads`,
      `/v1/webhooks/${subscription.id}/deliveries`,
      "/v1/rest/catalog.search",
    ];
    server = await openHandler(vitrina.handler);
  });
  afterAll(async () => {
    await server?.close();
    await storage?.close();
  });

  const get = async (path: string, limit: string) => {
    const response = await server.fetch(`${server.url}${path}?limit=${encodeURIComponent(limit)}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    return { status: response.status, json: (await response.json()) as any };
  };

  it("refuses a limit not written in plain decimal digits, naming the field", async () => {
    for (const path of lists)
      for (const limit of NOT_DECIMAL) {
        const answer = await get(path, limit);
        expect({ path, limit, status: answer.status, code: answer.json.error?.code }).toEqual({
          path,
          limit,
          status: 422,
          code: "invalid_payload",
        });
        expect(answer.json.error.reasons.map((r: { field: string }) => r.field)).toEqual(["limit"]);
      }
    for (const path of lists)
      expect((await get(path, "0x10")).json.error.reasons).toEqual([
        { field: "limit", reason: "must be written in plain decimal digits, like 20" },
      ]);
  });

  it("still takes plain decimal limits", async () => {
    for (const path of lists)
      for (const limit of ["1", "5", "05", "100"])
        expect({ path, limit, ...(await get(path, limit)) }).toMatchObject({ status: 200 });
  });
});
