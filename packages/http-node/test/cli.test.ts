import { describe, expect, it } from "vitest";
import { apiKeysCommand } from "../src/cli/api-keys.js";
import { connectorsCommand } from "../src/cli/connectors.js";
import { deliveriesCommand } from "../src/cli/deliveries.js";
import { workspacesCommand } from "../src/cli/workspaces.js";
import { useTempPgliteDataDir } from "./support/temp-pglite-env.js";
import { runCliJson } from "./support/cli-run.js";

// The console commands against embedded PGlite in a temp data dir, reopened between steps like
// separate `vitrina …` invocations would be. The dir starts with an empty database to migrate.
useTempPgliteDataDir("vitrina-cli-", { seeded: true });

const run = runCliJson;

describe("vitrina CLI console commands", () => {
  it("creates a workspace, a connector, lists it without its secret, and rotates it, across restarts", async () => {
    const workspace = await run(workspacesCommand, ["create"], { name: "Andes", owner: "ana" });
    const created = await run(connectorsCommand, ["create"], {
      workspace: workspace.id,
      name: "HubSpot",
      "system-id": "hubspot",
      user: "ana",
    });
    expect(created.secret).toMatch(/^vtr_cs_/);
    const listed = await run(connectorsCommand, ["list"], { workspace: workspace.id, user: "ana" });
    expect(listed).toEqual([created.connector]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    const rotated = await run(connectorsCommand, ["rotate", created.connector.id], { user: "ana" });
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.connector.secretVersion).toBe(2);
  }, 60_000);

  it("issues, lists and revokes API keys, and lists deliveries; refuses a non-owner", async () => {
    const workspace = await run(workspacesCommand, ["create"], { name: "Andes", owner: "ana" });
    const issued = await run(apiKeysCommand, ["issue"], {
      workspace: workspace.id,
      user: "ana",
      name: "crm",
      scopes: "webhooks:read,catalog:read",
    });
    expect(issued.secret).toMatch(/^vtr_live_/);
    expect(issued.key.scopes).toEqual(["webhooks:read", "catalog:read"]);
    const keys = await run(apiKeysCommand, ["list"], { workspace: workspace.id, user: "ana" });
    expect(keys.map((k: { id: string }) => k.id)).toEqual([issued.key.id]);
    expect(JSON.stringify(keys)).not.toContain(issued.secret);
    const revoked = await run(apiKeysCommand, ["revoke", issued.key.id], { workspace: workspace.id, user: "ana" });
    expect(revoked.revokedAt).toEqual(expect.any(String));
    await expect(run(connectorsCommand, ["list"], { workspace: workspace.id, user: "mallory" })).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(
      run(deliveriesCommand, ["list"], { workspace: workspace.id, subscription: "whs_x", user: "mallory" }),
    ).rejects.toMatchObject({ code: "forbidden" });
    await expect(
      run(deliveriesCommand, ["list"], { workspace: workspace.id, subscription: "whs_x", user: "ana" }),
    ).rejects.toMatchObject({ code: "not_found" });
  }, 60_000);
});
