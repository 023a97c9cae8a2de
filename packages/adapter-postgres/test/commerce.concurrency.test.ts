import { describe, expect, it } from "vitest";
import { DATABASE_URL, openTestStorage, testVitrina } from "./support.js";

if (!DATABASE_URL) console.warn("commerce.concurrency: skipped, races need real PostgreSQL (set DATABASE_URL)");

// PGlite runs one statement at a time, so only a real server can race two acceptances of a quote.
describe.runIf(DATABASE_URL)("quote acceptance racing on PostgreSQL", () => {
  it("accepts a quote once, refuses the other with conflict and emits one quote.accepted, over 150 races", async () => {
    const { storage } = await openTestStorage("PostgreSQL");
    try {
      const vitrina = testVitrina(storage);
      const workspace = await vitrina.workspaces.create({ name: "Ferretería Sur", ownerUserId: "owner-1" });
      const contact = await vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164: "+56911112222" });
      const rounds = 150;
      let bothAccepted = 0;
      const otherRefusals: string[] = [];
      for (let round = 0; round < rounds; round++) {
        const quote = await vitrina.quotes.create({
          workspaceId: workspace.id,
          contactId: contact.id,
          items: [{ sku: `SKU-${round}`, quantity: 1, unitPrice: 1990 }],
        });
        const outcomes = await Promise.allSettled([
          vitrina.quotes.accept({ workspaceId: workspace.id, quoteId: quote.id }),
          vitrina.quotes.accept({ workspaceId: workspace.id, quoteId: quote.id }),
        ]);
        if (outcomes.every((o) => o.status === "fulfilled")) bothAccepted++;
        for (const o of outcomes) {
          const code = o.status === "rejected" ? (o.reason as { code?: string }).code : undefined;
          if (o.status === "rejected" && code !== "conflict") otherRefusals.push(String(code));
        }
      }
      const events = await storage.events.listByWorkspace(workspace.id, { type: "quote.accepted" });
      expect({ bothAccepted, otherRefusals, events: events.length }).toEqual({
        bothAccepted: 0,
        otherRefusals: [],
        events: rounds,
      });
    } finally {
      await storage.close();
    }
  }, 60_000);
});
