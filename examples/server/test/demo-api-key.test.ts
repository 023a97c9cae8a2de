import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, silentLogger } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
// @ts-expect-error plain ESM without types, run from source like main.mjs does
import { DEMO_API_KEY_SCOPES, demoApiKey, writeDemoCredentials } from "../src/demo.mjs";

// Item 9 of issue 46: every `pnpm start` issued another live all-scope API key. The demo now reuses
// the one its credentials file holds while it still works.
let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "vitrina-demo-api-key-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function demoWorkspace() {
  const vitrina = createVitrina({
    storage: memoryStorage(),
    messaging: logMessagingTransport(silentLogger),
    secretBox: Buffer.alloc(32, 4).toString("base64"),
    logger: silentLogger,
  });
  const workspace = await vitrina.workspaces.create({ name: "Demo", ownerUserId: "demo-owner" });
  return { vitrina, workspaceId: workspace.id };
}

describe("the demo's API key across restarts", () => {
  it("a restart reuses the key in the credentials file: one key, not one per start", async () => {
    const { vitrina, workspaceId } = await demoWorkspace();
    const path = join(dir, "demo-credentials.json");
    const first = await demoApiKey(vitrina, workspaceId, path);
    await writeDemoCredentials(path, { apiKey: first });
    for (let restart = 0; restart < 3; restart++) expect(await demoApiKey(vitrina, workspaceId, path)).toBe(first);
    const keys = await vitrina.apiKeys.list({ userId: "demo-owner" }, workspaceId);
    expect(keys.map((k) => k.scopes)).toEqual([DEMO_API_KEY_SCOPES]);
  });

  it("issues a new key when the stored one no longer works (revoked, or fresh data)", async () => {
    const { vitrina, workspaceId } = await demoWorkspace();
    const path = join(dir, "demo-credentials.json");
    const first = await demoApiKey(vitrina, workspaceId, path);
    await writeDemoCredentials(path, { apiKey: first });
    const [key] = await vitrina.apiKeys.list({ userId: "demo-owner" }, workspaceId);
    await vitrina.apiKeys.revoke({ userId: "demo-owner" }, workspaceId, key!.id);
    const second = await demoApiKey(vitrina, workspaceId, path);
    expect(second).not.toBe(first);
    const fresh = await demoWorkspace(); // memory storage: the file's key is unknown there
    expect(await demoApiKey(fresh.vitrina, fresh.workspaceId, path)).not.toBe(first);
  });
});
