import { afterEach, describe, expect, it } from "vitest";
import { leadsCommand } from "../src/cli/leads.js";
import type { CliContext } from "../src/cli/context.js";
import { serveVitrina } from "../src/process/serve-vitrina.js";
import { runCommandInProcess } from "./support/cli-in-process.js";
import { cliSetup } from "./support/cli-main.js";
import { RECEIVER_SECRET, startReceiver, verifyWithNodeCrypto } from "./support/webhook-harness.js";

// Item 8 of issue 46: `vitrina trigger <event-type>` sends a sample of a real event type through the
// outbox to one subscription; `vitrina leads send` signs a sample lead with a connector's secret from
// the environment. Both run in process (the commands' functions), with real sockets.
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

/** A workspace with a subscription to `url`, in the command's own context, and the flags naming them. */
async function seedSubscription(ctx: CliContext, url: string) {
  closers.push(() => ctx.vitrina.close());
  const workspace = await ctx.vitrina.workspaces.create({ name: "Acme", ownerUserId: "owner-1" });
  const subscription = await ctx.vitrina.webhooks.create(workspace.id, {
    url,
    events: ["conversation.started"],
    secret: RECEIVER_SECRET,
  });
  return { workspace: workspace.id, subscription: subscription.id, user: "owner-1" };
}

describe("vitrina trigger <event-type>", () => {
  it("--deliver sends a signed sample of the type to the subscription now, and reports the attempt", async () => {
    const receiver = await startReceiver();
    closers.push(() => receiver.close());
    const run = await runCommandInProcess(
      "trigger",
      ["order.confirmed"],
      { deliver: true, json: true },
      { config: { webhooks: { allowInsecureLoopback: true } }, prepare: (ctx) => seedSubscription(ctx, receiver.url) },
    );
    expect(run.json()).toMatchObject({ event_type: "order.confirmed", status: "succeeded", attempts: 1 });
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    expect(
      verifyWithNodeCrypto(delivery!.headers["vitrina-signature"] as string, delivery!.body, RECEIVER_SECRET),
    ).toBe(true);
    const event = JSON.parse(delivery!.body);
    expect(event).toMatchObject({ id: run.json().event_id, type: "order.confirmed", data: { currency: "CLP" } });
  });

  it("without --deliver it is queued for a worker; an unknown type is a usage error listing the eight", async () => {
    const run = await runCommandInProcess(
      "trigger",
      ["quote.created"],
      { json: true },
      {
        config: { webhooks: { allowInsecureLoopback: true } },
        prepare: (ctx) => seedSubscription(ctx, "http://127.0.0.1:9/"),
      },
    );
    expect(run.json()).toMatchObject({ event_type: "quote.created", status: "pending" });
    await expect(
      runCommandInProcess(
        "trigger",
        ["lead.created"],
        { workspace: "w", subscription: "s", user: "u" },
        {
          prepare: async (ctx) => void closers.push(() => ctx.vitrina.close()),
        },
      ),
    ).rejects.toMatchObject({
      code: "invalid_argument",
      message: expect.stringContaining("conversation.started, conversation.escalated"),
    });
  });
});

describe("vitrina leads send", () => {
  async function servedWithConnector() {
    const { openCliContext } = await import("../src/cli/context.js");
    const ctx = await openCliContext(
      cliSetup({ memory: true, env: { VITRINA_SECRET_KEY: Buffer.alloc(32, 2).toString("base64") } }).setup,
    );
    const workspace = await ctx.vitrina.workspaces.create({ name: "Acme", ownerUserId: "owner-1" });
    const { connector, secret } = await ctx.vitrina.connectors.create(
      { userId: "owner-1" },
      { workspaceId: workspace.id, name: "CRM", systemId: "crm" },
    );
    const server = await serveVitrina(ctx.vitrina, { port: 0, handleSignals: false });
    closers.push(() => server.close());
    return { url: `${server.url}/functions/v1/lead-intake`, connectorId: connector.id, secret };
  }
  let stdout = () => "";
  const send = (flags: Record<string, string>, env: Record<string, string>, config = {}) => {
    const run = cliSetup({ config, env });
    stdout = run.stdout;
    return leadsCommand.runWithSetup!(run.setup, ["send"], flags);
  };

  it("signs a sample lead with the secret from VITRINA_CONNECTOR_SECRET and the server accepts it", async () => {
    const { url, connectorId, secret } = await servedWithConnector();
    await send({ connector: connectorId, url }, { VITRINA_CONNECTOR_SECRET: secret });
    const printed = JSON.parse(stdout());
    expect(printed).toMatchObject({ url, duplicate: false, outbound: { status: "sent" } });
    expect(printed.source_lead_id).toMatch(/^vitrina-cli-sample-/);
  });

  it("never takes the secret as a flag, needs the variable, and reports the server's refusal with its code", async () => {
    const { url, connectorId } = await servedWithConnector();
    await expect(send({ connector: connectorId, url, secret: "x" }, {})).rejects.toMatchObject({
      reasons: [{ field: "--secret" }],
    });
    await expect(send({ connector: connectorId, url }, {})).rejects.toMatchObject({
      reasons: [{ field: "VITRINA_CONNECTOR_SECRET" }],
    });
    await expect(
      send({ connector: connectorId, url }, { VITRINA_CONNECTOR_SECRET: "wrong-secret-0123456789" }),
    ).rejects.toMatchObject({
      message: expect.stringContaining("refused the lead: 401 invalid_signature"),
    });
  });
});
