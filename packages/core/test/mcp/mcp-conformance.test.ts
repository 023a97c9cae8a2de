import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpHarness, TOKENS, type McpHarness } from "./support/mcp-harness.js";

// The server scenarios of the official MCP conformance suite that apply to this server
// (`server-initialize`, `ping`, `tools-list`), written out with the SDK client. The suite itself
// (@modelcontextprotocol/conformance 0.1.16) can't run here: it needs Node >= 22 (it imports
// `globSync` from node:fs at load) and its client sends no Authorization header, which /mcp
// requires. Each test below makes the checks its scenario makes, plus the spec rules behind them.
let h: McpHarness;
beforeAll(async () => {
  h = await startMcpHarness();
});
afterAll(() => h.close());

/** The scenarios' client: name, version, sampling and elicitation capabilities. */
async function conformanceClient(): Promise<Client> {
  const client = new Client(
    { name: "conformance-test-client", version: "1.0.0" },
    { capabilities: { sampling: {}, elicitation: {} } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(h.mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${TOKENS.full}` } },
    }),
  );
  return client;
}

describe("MCP conformance server scenarios (equivalent checks)", () => {
  it("server-initialize: the two-phase handshake completes, with server info, a protocol version and capabilities", async () => {
    const client = await conformanceClient();
    expect(client.getServerVersion()).toEqual({ name: "vitrina", version: "1.0.0" });
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: false } });
    const init = await h.post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: { sampling: {}, elicitation: {} },
        clientInfo: { name: "conformance-test-client", version: "1.0.0" },
      },
    });
    expect(init.json.result).toMatchObject({
      protocolVersion: "2025-06-18",
      serverInfo: { name: "vitrina" },
      capabilities: { tools: {} },
    });
    // The `initialized` notification is accepted (202, no body).
    const initialized = await fetch(h.mcpUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        authorization: `Bearer ${TOKENS.full}`,
      },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    expect(initialized.status).toBe(202);
    await client.close();
  });

  it("ping: answers an empty object", async () => {
    const client = await conformanceClient();
    expect(await client.ping()).toEqual({});
    await client.close();
  });

  it("the optional features not offered (resources, prompts, logging, completions) answer -32601 Method not found", async () => {
    for (const [method, params] of [
      ["resources/list", {}],
      ["prompts/list", {}],
      ["logging/setLevel", { level: "info" }],
      ["completion/complete", { ref: { type: "ref/prompt", name: "x" }, argument: { name: "a", value: "" } }],
    ] as const) {
      const res = await h.post({ jsonrpc: "2.0", id: 4, method, params });
      expect(res.json, method).toMatchObject({ id: 4, error: { code: -32601 } });
    }
  });

  it("a method named like an Object.prototype member (constructor, toString, __proto__…) is -32601, not a 500", async () => {
    for (const method of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"]) {
      const res = await h.post({ jsonrpc: "2.0", id: 5, method, params: {} });
      expect(res.status, method).toBe(200);
      expect(res.json, method).toMatchObject({ jsonrpc: "2.0", id: 5, error: { code: -32601 } });
    }
  });

  it("tools-list: an array where every tool has a name, a description and an object inputSchema", async () => {
    const client = await conformanceClient();
    const { tools } = await client.listTools();
    expect(Array.isArray(tools)).toBe(true);
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
      expect(typeof tool.description === "string" && tool.description.length > 0).toBe(true);
      expect(tool.inputSchema.type).toBe("object");
    }
    await client.close();
  });
});
