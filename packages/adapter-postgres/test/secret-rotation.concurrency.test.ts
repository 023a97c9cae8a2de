import { fixtures } from "@vitrina/core/testing";
import { describe, expect, it } from "vitest";
import { webhookFixtures } from "../../core/src/testing/webhook-fixtures.js";
import { DATABASE_URL, openTestStorage } from "./support.js";

if (!DATABASE_URL) console.warn("secret-rotation.concurrency: skipped, races need real PostgreSQL (set DATABASE_URL)");

// Two rolling rotations of one subscription at once (two operators, or a retried API call), with a
// 410's disable racing them. Each rotation keeps the secret it replaced, read in its own UPDATE
// (under READ COMMITTED the second re-reads the row the first committed). A read-then-write
// rotation could keep the original secret as "previous" on both, dropping the secret the other
// rotation had just installed, which receivers may have deployed: so whichever lands second must
// keep the first one's secret, never the original. PGlite runs one statement at a time, so only a
// real server races.
describe.runIf(DATABASE_URL)("rolling secret rotations racing on PostgreSQL", () => {
  it("keeps, as the previous secret, the one the other rotation installed, over 100 races", async () => {
    const f = fixtures();
    const w = webhookFixtures();
    const { storage } = await openTestStorage("PostgreSQL");
    const subscriptions = storage.webhookSubscriptions;
    try {
      const workspace = f.workspace();
      await storage.workspaces.insert(workspace);
      const violations: string[] = [];
      const landedFirst = { a: 0, b: 0 };
      for (let round = 0; round < 100; round++) {
        const sub = w.subscription(workspace.id, { sealedSecret: `orig-${round}` });
        await subscriptions.insert(sub);
        const rotate = (secret: string) =>
          subscriptions.patch(workspace.id, sub.id, {
            sealedSecret: secret,
            previousSecretExpiresAt: f.at(86_400_000),
            updatedAt: f.at(round),
          });
        const gone = {
          enabled: false,
          disabledReason: "receiver answered 410 Gone",
          onlyIfUrl: sub.url,
          updatedAt: f.at(round),
        };
        await Promise.all([
          rotate(`a-${round}`),
          rotate(`b-${round}`),
          subscriptions.patch(workspace.id, sub.id, gone),
        ]);
        const stored = await subscriptions.get(workspace.id, sub.id);
        const pair = `${stored?.previousSealedSecret} -> ${stored?.sealedSecret}`;
        if (pair === `a-${round} -> b-${round}`) landedFirst.a++;
        else if (pair === `b-${round} -> a-${round}`) landedFirst.b++;
        else violations.push(`round ${round}: ${pair}`);
        if (stored?.enabled !== false) violations.push(`round ${round}: the concurrent disable was lost`);
      }
      console.info(`secret-rotation.concurrency: a landed first ${landedFirst.a} times, b ${landedFirst.b}`);
      expect(violations).toEqual([]);
    } finally {
      await storage.close();
    }
  }, 120_000);
});
