import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { openCliContext } from "../src/cli/context.js";
import { cliSetup } from "./support/cli-main.js";

/** A receiver on loopback that counts the deliveries it answers. */
async function countingReceiver() {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received: () => received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** One quote.created delivered by one worker pass of the CLI's Vitrina; resolves once it was attempted. */
async function deliverOnce(webhooks: Record<string, unknown>) {
  const receiver = await countingReceiver();
  const ctx = await openCliContext(
    cliSetup({ config: { webhooks: { allowInsecureLoopback: true, ...webhooks } }, memory: true, env: {} }).setup,
  );
  try {
    const { vitrina } = ctx;
    const workspace = await vitrina.workspaces.create({ name: "CLI", ownerUserId: "owner" });
    const contact = await vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164: "+56900000001" });
    await vitrina.webhooks.create(workspace.id, {
      url: receiver.url,
      events: ["quote.created"],
      secret: "cli_secret_0123456789abcdef",
    });
    await vitrina.quotes.create({
      workspaceId: workspace.id,
      contactId: contact.id,
      items: [{ sku: "SKU-1", quantity: 1, unitPrice: 1000 }],
    });
    expect(await vitrina.outbox.dispatcher.runOnce("cli")).toBe(1);
    return receiver.received();
  } finally {
    await ctx.vitrina.close();
    await receiver.close();
  }
}

describe("the CLI's webhook options", () => {
  it("deliver with the pinned sender by default", async () => {
    expect(await deliverOnce({})).toBe(1);
  });

  it("deliver with the config's own fetch when it brings one, instead of refusing both", async () => {
    const seen: string[] = [];
    const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      seen.push(String(input));
      return globalThis.fetch(input, init);
    }) as typeof globalThis.fetch;
    expect(await deliverOnce({ fetch })).toBe(1);
    expect(seen).toHaveLength(1);
  });
});
