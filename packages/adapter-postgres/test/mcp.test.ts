import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpHarness, type McpHarness } from "../../core/test/mcp/support/mcp-harness.js";
import { backends, openTestStorage } from "./support.js";

// The MCP tools that write (send_message: message + conversation in one transaction) and read
// the conversations repository, on a real SQL storage.
describe.each(backends)("MCP tools on %s", (backend) => {
  let h: McpHarness;
  let client: Client;
  beforeAll(async () => {
    h = await startMcpHarness({}, { storage: (await openTestStorage(backend)).storage });
    client = await h.connect();
  });
  afterAll(async () => {
    await client.close();
    await h.close();
  });

  it("lists conversations, sends a message as a human and reads it back in the history", async () => {
    const open = (await client.callTool({ name: "list_conversations", arguments: { status: "open" } })) as any;
    expect(open.structuredContent.items.map((c: any) => c.id)).toEqual([h.conversation.id]);
    const sent = (await client.callTool({
      name: "send_message",
      arguments: { conversation_id: h.conversation.id, text: "Hola desde Postgres" },
    })) as any;
    expect(sent.isError).toBeFalsy();
    const history = (await client.callTool({
      name: "get_conversation_history",
      arguments: { conversation_id: h.conversation.id, limit: 1 },
    })) as any;
    expect(history.structuredContent.items).toEqual([
      { sender: "human", content: "Hola desde Postgres", created_at: sent.structuredContent.created_at },
    ]);
    const conversation = await h.storage.conversations.get(h.workspace.id, h.conversation.id);
    expect(conversation?.updatedAt).toBe(sent.structuredContent.created_at);
  });
});
