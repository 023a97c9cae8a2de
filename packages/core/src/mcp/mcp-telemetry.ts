import { context, propagation, SpanKind, SpanStatusCode, type Attributes } from "@opentelemetry/api";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { withSpan } from "../telemetry/tracing.js";

/**
 * The MCP semantic conventions' server span for `tools/call`: named `tools/call <tool>`, with
 * `mcp.method.name`, `gen_ai.tool.name` and `gen_ai.operation.name`. A trace context the client
 * put in `params._meta` (`traceparent`, as those conventions propose) is the parent; otherwise
 * the active one. A tool error (`isError`) sets `error.type` to `tool_error` and our code on
 * `vitrina.error.code`; arguments and results are never recorded.
 */
export function observeToolCall(
  call: { tool: string | null; requestId: string | number | undefined; meta: Record<string, unknown> | undefined },
  run: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const attributes: Attributes = { "mcp.method.name": "tools/call", "gen_ai.operation.name": "execute_tool" };
  // An unknown tool's name is whatever the caller typed: kept out of span names and attributes.
  if (call.tool !== null) attributes["gen_ai.tool.name"] = call.tool;
  if (call.requestId !== undefined) attributes["jsonrpc.request.id"] = String(call.requestId);
  const parent = call.meta !== undefined ? propagation.extract(context.active(), call.meta) : undefined;
  const name = call.tool === null ? "tools/call" : `tools/call ${call.tool}`;
  return withSpan(
    name,
    attributes,
    async (span) => {
      const result = await run();
      if (result.isError === true) {
        const code = (result._meta?.["vitrina/error"] as { code?: unknown } | undefined)?.code;
        span.setAttribute("error.type", "tool_error");
        if (typeof code === "string") span.setAttribute("vitrina.error.code", code);
        span.setStatus({ code: SpanStatusCode.ERROR, message: "tool_error" });
      }
      return result;
    },
    { kind: SpanKind.SERVER, parent },
  );
}
