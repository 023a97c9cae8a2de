import { describe, expect, it } from "vitest";
import { deliveriesCommand } from "../src/cli/deliveries.js";
import { webhooksCommand } from "../src/cli/webhooks.js";
import { workspacesCommand } from "../src/cli/workspaces.js";
import { openCliContext } from "../src/cli/context.js";
import { webhookFixtures } from "../../core/src/testing/webhook-fixtures.js";
import { useTempPgliteDataDir } from "./support/temp-pglite-env.js";
import { runCliJson } from "./support/cli-run.js";
import { cliSetup } from "./support/cli-main.js";

useTempPgliteDataDir("vitrina-cli-recover-", { seeded: true });

const run = runCliJson;

describe("vitrina webhooks recover / health, deliveries list filters", () => {
  it("recovers failed deliveries since a time in bounded runs, never twice, and shows each endpoint's health", async () => {
    const workspace = await run(workspacesCommand, ["create"], { name: "Andes", owner: "ana" });
    const w = webhookFixtures();
    const sub = w.subscription(workspace.id);
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const failed = [1, 2, 3].map((i) =>
      w.delivery(workspace.id, sub.id, {
        status: "failed",
        attemptCount: 33,
        lastError: "HTTP 500",
        createdAt: new Date(Date.now() - i * 60_000).toISOString(),
      }),
    );
    const older = w.delivery(workspace.id, sub.id, { status: "failed", createdAt: "2026-01-01T00:00:00.000Z" });
    const ctx = await openCliContext(cliSetup({ env: { ...process.env } }).setup);
    await ctx.vitrina.storage.webhookSubscriptions.insert(sub);
    for (const d of [...failed, older]) await ctx.vitrina.storage.webhookDeliveries.insert(d);
    await ctx.vitrina.close();

    const flags = { workspace: workspace.id, user: "ana", since };
    const first = await run(webhooksCommand, ["recover", sub.id], { ...flags, limit: "2" });
    expect(first).toMatchObject({ object: "webhook_recovery", requeued: 2, limit: 2, has_more: true });
    const second = await run(webhooksCommand, ["recover", sub.id], flags);
    expect(second).toMatchObject({ requeued: 1, has_more: false });
    expect([...first.delivery_ids, ...second.delivery_ids].sort()).toEqual(failed.map((d) => d.id).sort());
    expect(await run(webhooksCommand, ["recover", sub.id], flags)).toMatchObject({ requeued: 0 });

    const listFlags = { workspace: workspace.id, subscription: sub.id, user: "ana" };
    const stillFailed = await run(deliveriesCommand, ["list"], { ...listFlags, status: "failed" });
    expect(stillFailed.data.map((d: { id: string }) => d.id)).toEqual([older.id]);
    await expect(run(deliveriesCommand, ["list"], { ...listFlags, status: "lost" })).rejects.toMatchObject({
      code: "invalid_payload",
      reasons: [expect.objectContaining({ field: "status" })],
    });

    const health = await run(webhooksCommand, ["health"], { workspace: workspace.id, user: "ana" });
    expect(health).toEqual([expect.objectContaining({ subscription_id: sub.id, state: "idle", success_rate: null })]);

    await expect(
      run(webhooksCommand, ["recover", sub.id], { workspace: workspace.id, user: "ana" }),
    ).rejects.toMatchObject({
      message: expect.stringContaining("--since"),
    });
    await expect(run(webhooksCommand, ["recover", sub.id], { ...flags, since: "yesterday" })).rejects.toMatchObject({
      code: "invalid_payload",
      reasons: [expect.objectContaining({ field: "since" })],
    });
    await expect(run(webhooksCommand, ["recover", sub.id], { ...flags, user: "mallory" })).rejects.toMatchObject({
      code: "forbidden",
    });
  }, 60_000);
});
