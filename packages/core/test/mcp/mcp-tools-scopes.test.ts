import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, silentLogger, type Principal } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { mcpTools } from "@vitrina/core/mcp";
import { describe, expect, it } from "vitest";

// `mcpTools()` is public: an embedder may serve the tools without core's `/mcp` route, which
// checks scopes before a call. Every tool must then refuse a principal without its scopes by
// itself, as the capability-backed ones do through the runtime.
describe("mcpTools() outside the /mcp route", () => {
  it("every tool refuses a principal without its scopes with insufficient_scope, and sends nothing", async () => {
    const storage = memoryStorage();
    const messaging = logMessagingTransport(silentLogger);
    const vitrina = createVitrina({ storage, messaging, secretBox: Buffer.alloc(32, 9).toString("base64") });
    const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner" });
    const catalog = mcpTools({
      storage,
      messaging,
      clock: { now: () => new Date() },
      ids: () => crypto.randomUUID(),
      logger: silentLogger,
      capabilities: vitrina.capabilities,
      options: { enableFinancialTools: true },
    });
    const principal: Principal = { kind: "api_key", workspaceId: workspace.id, keyId: "key-1", scopes: [] };
    const refusals: Record<string, unknown> = {};
    for (const [name, tool] of catalog.byName) {
      refusals[name] = await tool.run({}, { principal, meta: undefined }).then(
        () => "ran",
        (error: { code?: string }) => error.code,
      );
    }
    // The spec's 8 tools (mcp-tools.test.ts lists them by name).
    expect(Object.keys(refusals)).toHaveLength(8);
    expect(refusals).toEqual(Object.fromEntries(Object.keys(refusals).map((name) => [name, "insufficient_scope"])));
    expect(messaging.sent).toHaveLength(0);
  });
});
