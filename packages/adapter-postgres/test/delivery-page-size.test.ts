import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryStorage } from "@vitrina/adapter-memory";
import type { Storage } from "@vitrina/core";
import { backends, openTestStorage, testVitrina } from "./support.js";

// `vitrina.webhooks.deliveries` is what `GET /v1/webhooks/:id/deliveries` and `vitrina deliveries
// list --limit N` page through. The route checks `limit`; the service did not, so the CLI (or any
// embedder) passing 100000000000000000000 reached PostgreSQL's LIMIT and came back as a raw driver
// error (22003, bigint out of range), and a huge-but-valid limit read a subscription's whole history.
describe.each(["memory", ...backends] as const)("delivery page size on %s", (backend) => {
  let storage: Storage;
  let vitrina: ReturnType<typeof testVitrina>;
  let workspaceId = "";
  let subscriptionId = "";
  beforeAll(async () => {
    storage = backend === "memory" ? memoryStorage() : (await openTestStorage(backend)).storage;
    vitrina = testVitrina(storage, { webhooks: { externalWorker: true } });
    workspaceId = (await vitrina.workspaces.create({ name: "pages", ownerUserId: "ana" })).id;
    subscriptionId = (
      await vitrina.webhooks.create(workspaceId, {
        url: "https://erp.example.com/hooks",
        events: ["quote.created"],
        secret: "whsec_0123456789abcdefghijklmnop",
      })
    ).id;
  });
  afterAll(async () => {
    await storage.close();
  });

  it("refuses a limit outside 1–100 naming the field, as the route does", async () => {
    for (const limit of [1e20, 2 ** 53, 101, 0, -1, 1.5, Number.NaN]) {
      const refused = await vitrina.webhooks
        .deliveries(workspaceId, subscriptionId, { limit })
        .catch((e: unknown) => e);
      expect({ limit, refused }).toMatchObject({
        limit,
        refused: { code: "invalid_payload", reasons: [{ field: "limit", reason: "must be an integer from 1 to 100" }] },
      });
    }
  });

  it("still pages with 1 to 100, and the default", async () => {
    for (const options of [{ limit: 1 }, { limit: 100 }, {}])
      expect(await vitrina.webhooks.deliveries(workspaceId, subscriptionId, options)).toMatchObject({
        object: "list",
        has_more: false,
      });
  });
});
