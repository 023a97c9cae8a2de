import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installOtelSdk, type OtelSdk } from "../support/otel-sdk.js";
import { startMcpHarness, type McpHarness } from "./support/mcp-harness.js";

const CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN = "00f067aa0ba902b7";

describe("MCP tools/call and capability spans, with the OpenTelemetry SDK installed", () => {
  let sdk: OtelSdk;
  let h: McpHarness;
  let client: Client;
  beforeAll(async () => {
    sdk = installOtelSdk();
    h = await startMcpHarness();
    client = await h.connect();
  });
  afterAll(async () => {
    await client.close();
    await h.close();
    await sdk.uninstall();
  });

  it("traces a tool call as a SERVER span per the MCP conventions, its capability as a child, the caller's _meta trace as parent", async () => {
    const traceparent = `00-${CALLER_TRACE}-${CALLER_SPAN}-01`;
    const result = (await client.callTool({
      name: "search_contacts",
      arguments: { query: "María" },
      _meta: { traceparent },
    })) as any;
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.structuredContent)).toContain(h.contact.phoneE164);

    const spans = await sdk.spans();
    const tool = spans.find((s) => s.name === "tools/call search_contacts");
    expect(tool?.kind).toBe(SpanKind.SERVER);
    expect(tool?.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "search_contacts",
      "gen_ai.operation.name": "execute_tool",
    });
    expect(tool?.attributes["jsonrpc.request.id"]).toEqual(expect.any(String));
    expect(tool?.spanContext().traceId).toBe(CALLER_TRACE);
    expect(tool?.parentSpanContext?.spanId).toBe(CALLER_SPAN);

    const invoke = spans.find((s) => s.name === "vitrina.capability.invoke");
    expect(invoke?.attributes).toMatchObject({
      "vitrina.capability.name": "contacts.search",
      "vitrina.workspace.id": h.workspace.id,
    });
    expect(invoke?.parentSpanContext?.spanId).toBe(tool?.spanContext().spanId);

    // The search term and the contact it found stay out of everything exported.
    const exported = await sdk.everythingExported();
    for (const marker of ["María", h.contact.phoneE164, h.contact.email!]) expect(exported).not.toContain(marker);
  });

  it("marks a tool error as tool_error with our code, and exports nothing of an unknown tool's name", async () => {
    const refused = (await client.callTool({ name: "get_contact", arguments: { contact_id: 42 } })) as any;
    expect(refused.isError).toBe(true);
    await expect(client.callTool({ name: "no_such_tool_+56911112222", arguments: {} })).rejects.toThrow(/Unknown tool/);

    const spans = await sdk.spans();
    const failed = spans.find((s) => s.name === "tools/call get_contact");
    expect([failed?.status.code, failed?.attributes["error.type"], failed?.attributes["vitrina.error.code"]]).toEqual([
      SpanStatusCode.ERROR,
      "tool_error",
      "invalid_payload",
    ]);
    // The request gate answers an unknown tool (-32602) before any tool runs, so it opens no tool span.
    expect(spans.map((s) => s.name)).not.toContain("tools/call");
    expect(spans.map((s) => s.name).filter((name) => name.includes("no_such_tool"))).toEqual([]);
    expect(await sdk.everythingExported()).not.toContain("56911112222");
  });
});
