import { fixtures } from "@vitrina/core/testing";
import { describe, expect, it } from "vitest";
import { webhookFixtures } from "../../core/src/testing/webhook-fixtures.js";
import { DATABASE_URL, openTestStorage } from "./support.js";

if (!DATABASE_URL) console.warn("claims.concurrency: skipped, races need real PostgreSQL (set DATABASE_URL)");

// PGlite runs one statement at a time, so only a real server can race claims against each other.
describe.runIf(DATABASE_URL)("capped claims racing on PostgreSQL", () => {
  it("never hand one delivery to two claimers, nor more of a subscription than its cap, over 120 races", async () => {
    const f = fixtures();
    const w = webhookFixtures();
    const { storage } = await openTestStorage("PostgreSQL");
    try {
      const workspace = f.workspace();
      await storage.workspaces.insert(workspace);
      const subs = [0, 1, 2].map(() => w.subscription(workspace.id));
      for (const sub of subs) await storage.webhookSubscriptions.insert(sub);
      let doubleClaims = 0;
      let overCap = 0;
      for (let round = 0; round < 120; round++) {
        // Fresh due rows each round; earlier rounds' rows stay leased far into the future.
        const rows = subs.flatMap((sub) =>
          [0, 1, 2, 3].map((i) => w.delivery(workspace.id, sub.id, { nextAttemptAt: f.at(round * 10 + i) })),
        );
        for (const d of rows) await storage.webhookDeliveries.insert(d);
        const now = f.at(round * 10 + 5);
        const held = { [subs[0]!.id]: round % 3 };
        const claims = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            storage.webhookDeliveries.claimDueDeliveries(now, 3, f.at(1e12), `w${round}-${i}`, { max: 2, held }),
          ),
        );
        const ids = claims.flat().map((d) => d.id);
        doubleClaims += ids.length - new Set(ids).size;
        for (const claim of claims) {
          for (const sub of subs) {
            const taken = claim.filter((d) => d.subscriptionId === sub.id).length;
            if (taken + (held[sub.id] ?? 0) > 2 && taken > 0) overCap++;
          }
        }
      }
      expect({ doubleClaims, overCap }).toEqual({ doubleClaims: 0, overCap: 0 });
    } finally {
      await storage.close();
    }
  }, 120_000);
});
