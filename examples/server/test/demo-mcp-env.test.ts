import { silentLogger } from "@vitrina/core";
import { serve } from "@vitrina/http-node";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM without types, run from source like main.mjs does
import { createDemo, mcpOptionsFromEnv } from "../src/demo.mjs";

describe("demo MCP environment switches", () => {
  it("VITRINA_MCP_CANONICAL_TOOL_NAMES and VITRINA_MCP_ALLOWED_ORIGINS reach the MCP server", async () => {
    const env = {
      VITRINA_STORAGE: "memory",
      VITRINA_MCP_CANONICAL_TOOL_NAMES: "underscore",
      VITRINA_MCP_ALLOWED_ORIGINS: "https://console.example.com/, http://localhost:6274",
    };
    const demo = await createDemo({ env, logger: silentLogger, memory: true });
    const server = await serve(demo.vitrina.handler, { port: 0, handleSignals: false });
    try {
      const post = (origin: string | null, method = "ping") =>
        fetch(`${server.url}/mcp`, {
          method: "POST",
          headers: {
            ...(origin !== null && { origin }),
            "content-type": "application/json",
            accept: "application/json",
            authorization: `Bearer ${demo.apiKey}`,
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method }),
        });
      const names = (
        (await (await post(null, "tools/list")).json()) as { result: { tools: Array<{ name: string }> } }
      ).result.tools.map((t) => t.name);
      expect(names).toHaveLength(14);
      expect(names).toContain("contacts_update");
      expect((await post("https://console.example.com")).status).toBe(200);
      expect((await post("http://localhost:6274")).status).toBe(200);
      expect((await post(server.url)).status).toBe(200);
      expect((await post("https://elsewhere.example")).status).toBe(403);
    } finally {
      await server.close();
      await demo.vitrina.close();
    }
  });

  it("defaults to the 8 spec tools, and refuses an unknown naming style at startup", () => {
    expect(mcpOptionsFromEnv({})).toEqual({ allowedOrigins: [], canonicalToolNames: "none" });
    expect(mcpOptionsFromEnv({ VITRINA_PUBLIC_URL: "https://demo.example.com/" }).publicBaseUrl).toBe(
      "https://demo.example.com",
    );
    expect(() => mcpOptionsFromEnv({ VITRINA_MCP_CANONICAL_TOOL_NAMES: "camel" })).toThrow(/none, underscore, dotted/);
  });
});
