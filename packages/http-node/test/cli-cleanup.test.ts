import { fixtures } from "@vitrina/core/testing";
import { describe, expect, it } from "vitest";
import { cleanupCommand } from "../src/cli/cleanup.js";
import { openCliContext } from "../src/cli/context.js";
import { cliSetup } from "./support/cli-main.js";
import { useTempPgliteDataDir } from "./support/temp-pglite-env.js";

// `vitrina cleanup` against embedded PGlite in a temp data dir, reopened per invocation.
useTempPgliteDataDir("vitrina-cleanup-", { seeded: true });

async function cleanup(flags: Record<string, string | boolean>) {
  // The environment as the process has it now (useTempPgliteDataDir and the tests set it).
  const { setup, stdout } = cliSetup({ env: { ...process.env } });
  const ctx = await openCliContext(setup);
  try {
    await cleanupCommand.prepare!([], flags, setup.env)(ctx);
  } finally {
    await ctx.vitrina.close();
  }
  return JSON.parse(stdout());
}

/** A workspace with one long-finished delivery (two attempts) of an old event, and an old lead. */
async function seedOldRecords() {
  const f = fixtures();
  const ctx = await openCliContext(cliSetup({ env: { ...process.env } }).setup);
  const s = ctx.vitrina.storage;
  try {
    const workspace = f.workspace();
    await s.workspaces.insert(workspace);
    const connector = f.connector(workspace.id);
    await s.connectors.insert(connector);
    const { contact } = await s.contacts.insertOrGetByPhone(f.contact(workspace.id));
    await s.leads.insertIfNew(
      f.lead(workspace.id, connector.id, { contactId: contact.id, receivedAt: "2020-01-01T00:00:00.000Z" }),
    );
    const conversation = f.conversation(workspace.id, contact.id);
    await s.conversations.insert(conversation);
    await s.messages.insert({
      id: "msg_old",
      workspaceId: workspace.id,
      conversationId: conversation.id,
      sender: "contact",
      content: "un texto antiguo",
      createdAt: "2020-01-01T00:00:00.000Z",
    });
    await s.events.append({
      id: "evt_old",
      workspaceId: workspace.id,
      type: "order.confirmed",
      created: "2020-01-01T00:00:00.000Z",
      data: {},
    });
    const delivery = {
      id: f.id(),
      workspaceId: workspace.id,
      subscriptionId: "whs_1",
      eventId: "evt_old",
      eventType: "order.confirmed",
      status: "succeeded" as const,
      attemptCount: 2,
      attemptsBeforeResend: 0,
      nextAttemptAt: "2020-01-01T00:00:00.000Z",
      retryUntil: "2020-01-02T00:00:00.000Z",
      leaseUntil: null,
      leasedBy: null,
      lastError: null,
      createdAt: "2020-01-01T00:00:00.000Z",
      deliveredAt: "2020-01-01T00:01:00.000Z",
    };
    await s.webhookDeliveries.insert(delivery);
    for (const number of [1, 2])
      await s.webhookAttempts.insert({
        id: f.id(),
        deliveryId: delivery.id,
        number,
        attemptedAt: "2020-01-01T00:00:00.000Z",
        statusCode: 200,
        durationMs: 5,
        error: null,
      });
  } finally {
    await ctx.vitrina.close();
  }
}

describe("vitrina cleanup", () => {
  it("counts with --dry-run, then removes, per kind; lead payloads only when configured", async () => {
    await seedOldRecords();
    const kept = { deliveriesDays: 30, leadPayloadsDays: null, messageTextDays: null };
    expect(await cleanup({ "dry-run": true })).toMatchObject({
      attempts: 2,
      deliveries: 1,
      events: 1,
      leadPayloads: 0,
      dryRun: true,
      settings: kept,
    });
    expect(await cleanup({})).toMatchObject({
      attempts: 2,
      deliveries: 1,
      events: 1,
      leadPayloads: 0,
      dryRun: false,
      complete: true,
    });
    expect(await cleanup({ "dry-run": true })).toMatchObject({ attempts: 0, deliveries: 0, events: 0 });

    process.env.VITRINA_RETENTION_LEAD_PAYLOADS_DAYS = "365";
    process.env.VITRINA_RETENTION_DELIVERIES_DAYS = "keep";
    expect(await cleanup({})).toMatchObject({
      deliveries: 0,
      leadPayloads: 1,
      messageTexts: 0,
      settings: { deliveriesDays: null, leadPayloadsDays: 365, messageTextDays: null },
    });

    process.env.VITRINA_RETENTION_MESSAGE_TEXT_DAYS = "90";
    expect(await cleanup({ "dry-run": true })).toMatchObject({ messageTexts: 1, settings: { messageTextDays: 90 } });
    expect(await cleanup({})).toMatchObject({ messageTexts: 1, leadPayloads: 0 });
    expect(await cleanup({})).toMatchObject({ messageTexts: 0 });
  }, 60_000);

  it("refuses a retention setting that is not a number of days or keep", async () => {
    process.env.VITRINA_RETENTION_DELIVERIES_DAYS = "thirty";
    await expect(openCliContext(cliSetup({ env: { ...process.env } }).setup)).rejects.toMatchObject({
      code: "invalid_argument",
      reasons: [{ field: "VITRINA_RETENTION_DELIVERIES_DAYS" }],
    });
  });
});
