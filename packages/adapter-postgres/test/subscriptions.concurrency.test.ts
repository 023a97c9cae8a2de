import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryStorage } from "@vitrina/adapter-memory";
import type { Storage } from "@vitrina/core";
import { backends, openTestStorage, testVitrina } from "./support.js";

// Two changes to one webhook subscription at once (a new URL from one admin, "disable" from
// another): each must stay applied. The service used to read the row, then write all of it back,
// outside any transaction: the two calls interleave at their awaits, so one change was lost on
// every backend (memory 100, PGlite 100, PostgreSQL 99 of 100 races). Now each writes only its fields.
const RACES = 100;

describe.each(["memory", ...backends] as const)("webhook subscription changes under concurrency on %s", (backend) => {
  let storage: Storage;
  let vitrina: ReturnType<typeof testVitrina>;
  let workspaceId = "";
  beforeAll(async () => {
    storage = backend === "memory" ? memoryStorage() : (await openTestStorage(backend)).storage;
    vitrina = testVitrina(storage, {
      webhooks: { externalWorker: true },
    });
    workspaceId = (await vitrina.workspaces.create({ name: "races", ownerUserId: "ana" })).id;
  });
  afterAll(async () => {
    await storage.close();
  });

  it(`keeps a URL change and a concurrent disable both (${RACES} races)`, async () => {
    let lost = 0;
    for (let i = 0; i < RACES; i++) {
      const { id } = await vitrina.webhooks.create(workspaceId, {
        url: "https://erp.example.com/hooks/old",
        events: ["quote.created"],
        secret: "whsec_0123456789abcdefghijklmnop",
      });
      const url = `https://erp.example.com/hooks/new-${i}`;
      await Promise.all([
        vitrina.webhooks.update(workspaceId, id, { url }),
        vitrina.webhooks.update(workspaceId, id, { enabled: false }),
      ]);
      const stored = await storage.webhookSubscriptions.get(workspaceId, id);
      if (stored?.url !== url || stored.enabled || stored.disabledReason !== "disabled by API") lost++;
    }
    console.log(`${backend}: ${lost} of ${RACES} races lost a change`);
    expect(lost).toBe(0);
  });
});
