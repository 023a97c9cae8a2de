import type { CallToolResult, Tool, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { VitrinaError } from "../errors.js";
import { statusForCode } from "../http/json.js";
import type { Logger } from "../ports/logger.js";
import { reasonsFromZod } from "../validation.js";
import type { Principal, ScopeRequirement } from "./authenticator.js";

export interface ToolContext {
  principal: Principal;
  /** `params._meta` of the call; `idempotencyKey` there is passed on to write capabilities. */
  meta: Record<string, unknown> | undefined;
}

/** What a tool hands back: the object for `structuredContent`, and `_meta` (e.g. provenance). */
export interface ToolOutcome {
  structured: Record<string, unknown>;
  meta?: Record<string, unknown>;
}

/** One MCP tool: its listing (schemas, annotations), the scopes it needs, and what it does. */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  /** Must describe an object: MCP's `structuredContent` is one, so arrays come wrapped as `{ items }`. */
  output: z.ZodObject;
  annotations: ToolAnnotations;
  scope: ScopeRequirement;
  run(input: Record<string, unknown>, context: ToolContext): Promise<ToolOutcome>;
}

/** The tools/list entry, with JSON Schema generated once from the zod schemas (draft-07, what SDK clients validate with). */
export function listedTool(tool: ToolDefinition): Tool {
  const schema = (s: z.ZodObject, io: "input" | "output") => {
    const { $schema: _ignored, ...json } = z.toJSONSchema(s, { target: "draft-7", io }) as Record<string, unknown>;
    return json as Tool["inputSchema"];
  };
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: schema(tool.input, "input"),
    outputSchema: schema(tool.output, "output"),
    annotations: { title: tool.title, ...tool.annotations },
  };
}

function toolError(message: string, code: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: message }], _meta: { "vitrina/error": { code } } };
}

/**
 * Runs a tool and shapes the MCP result. Failures a model can act on (invalid arguments, not
 * found, disabled, messaging refused) come back as tool errors (`isError: true`) so it can
 * correct itself, as the 2025-06-18 spec recommends; anything unexpected is logged and reported
 * without internals.
 */
export async function runTool(tool: ToolDefinition, args: unknown, context: ToolContext, logger: Logger): Promise<CallToolResult> {
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) {
    const reasons = reasonsFromZod(parsed.error).map((r) => `${r.field || "(arguments)"}: ${r.reason}`);
    return toolError(`Invalid arguments for ${tool.name}: ${reasons.join("; ")}`, "invalid_payload");
  }
  try {
    const outcome = await tool.run(parsed.data as Record<string, unknown>, context);
    return {
      content: [{ type: "text", text: JSON.stringify(outcome.structured) }],
      structuredContent: outcome.structured,
      ...(outcome.meta && { _meta: outcome.meta }),
    };
  } catch (error) {
    if (error instanceof VitrinaError) {
      // Same rule as the HTTP error bodies: our own errors keep their message, outages are logged too.
      if (statusForCode(error.code) >= 500) logger.error("mcp tool failed", { tool: tool.name, code: error.code, message: error.message });
      const reasons = error.reasons.map((r) => `${r.field || "(arguments)"}: ${r.reason}`);
      return toolError(reasons.length > 0 ? `${error.message}: ${reasons.join("; ")}` : error.message, error.code);
    }
    logger.error("mcp tool failed", { tool: tool.name, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    return toolError(`${tool.name} failed because of an internal error`, "internal");
  }
}
