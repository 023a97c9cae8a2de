import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { JsonObjectSchema, ListedTool, ToolAnnotations } from "./tool-listing-types.js";
import { z } from "zod";
import { toCatalogJsonSchema } from "../capabilities/json-schema.js";
import { VitrinaError } from "../errors.js";
import { statusForCode } from "../http/json.js";
import { type Logger } from "../ports/logger.js";
import { describeError } from "../logging/loggers.js";
import { parseOrThrow } from "../validation.js";
import type { Principal, ScopeRequirement } from "../auth/authenticators.js";
import { assertScopes } from "../auth/scopes.js";

export interface ToolContext {
  principal: Principal;
  /** `params._meta` of the call (`idempotencyKey` there is still read by write capabilities). */
  meta: Record<string, unknown> | undefined;
}

/** What a tool hands back: the object for `structuredContent`, and `_meta` (e.g. provenance). */
export interface ToolOutcome {
  structured: Record<string, unknown>;
  meta?: Record<string, unknown>;
}

export type { JsonObjectSchema } from "./tool-listing-types.js";

/** One MCP tool: its listing (JSON Schemas, annotations), the scopes it needs, and what it does. */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonObjectSchema;
  /** Must describe an object: MCP's `structuredContent` is one, so arrays come wrapped as `{ items }`. */
  outputSchema: JsonObjectSchema;
  annotations: ToolAnnotations;
  /** The listing's `_meta`: for a capability-backed tool, the capability it runs (its canonical name). */
  meta?: Record<string, unknown>;
  scope: ScopeRequirement;
  /** Validates `args` itself (or leaves it to the capability runtime) and runs. */
  run(args: Record<string, unknown>, context: ToolContext): Promise<ToolOutcome>;
}

/** JSON Schema of a zod schema as tools/list carries it: the catalog's form (no `$schema`, no type arrays). */
function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): JsonObjectSchema {
  return toCatalogJsonSchema(schema, io) as JsonObjectSchema;
}

/** A tool whose input and output are zod objects: arguments are validated before `run` sees them. */
export function zodTool<I extends z.ZodObject, O extends z.ZodObject>(tool: {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  scope: ScopeRequirement;
  run(input: z.output<I>, context: ToolContext): Promise<{ structured: z.input<O>; meta?: Record<string, unknown> }>;
}): ToolDefinition {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    annotations: tool.annotations,
    scope: tool.scope,
    inputSchema: jsonSchemaOf(tool.input, "input"),
    outputSchema: jsonSchemaOf(tool.output, "output"),
    // The scopes are checked here too, not only by `/mcp` before the call: `mcpTools()` is public, and
    // an embedder serving these tools another way must get the same refusal the capability-backed
    // tools give (their runtime checks), not a tool that runs for any principal.
    run: async (args, context) => {
      assertScopes(context.principal, { name: tool.name, ...tool.scope });
      return tool.run(parseOrThrow(tool.input, args, `${tool.name} input`), context);
    },
  };
}

export function listedTool(tool: ToolDefinition): ListedTool {
  const { name, title, description, inputSchema, outputSchema, annotations, meta } = tool;
  return {
    name,
    title,
    description,
    inputSchema,
    outputSchema,
    annotations: { title, ...annotations },
    ...(meta && { _meta: meta }),
  };
}

function toolError(message: string, code: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: message }], _meta: { "vitrina/error": { code } } };
}

/**
 * Runs a tool and shapes the MCP result. Failures a model can act on (invalid arguments, not
 * found, disabled, messaging refused) come back as tool errors (`isError: true`) naming each field
 * at fault, so it can correct itself, as the 2025-06-18 spec recommends; anything unexpected is
 * logged and reported without internals.
 */
export async function runTool(
  tool: ToolDefinition,
  args: Record<string, unknown> | undefined,
  context: ToolContext,
  logger: Logger,
): Promise<CallToolResult> {
  try {
    const outcome = await tool.run(args ?? {}, context);
    return {
      content: [{ type: "text", text: JSON.stringify(outcome.structured) }],
      structuredContent: outcome.structured,
      ...(outcome.meta && { _meta: outcome.meta }),
    };
  } catch (error) {
    if (error instanceof VitrinaError) {
      // Same rule as the HTTP error bodies: our own errors keep their message, 5xx are logged too.
      if (statusForCode(error.code) >= 500)
        logger.error(
          {
            tool: tool.name,
            code: error.code,
            error: error.message,
            ...(error.cause === undefined ? {} : { cause: describeError(error.cause) }),
          },
          "mcp tool failed",
        );
      // Except `internal`: its message is for the operator (logged above), as in the HTTP bodies.
      if (error.code === "internal") return toolError(`${tool.name} failed because of an internal error`, "internal");
      const reasons = error.reasons.map((r) => `${r.field || "(arguments)"}: ${r.reason}`);
      return toolError(reasons.length > 0 ? `${error.message}: ${reasons.join("; ")}` : error.message, error.code);
    }
    logger.error({ tool: tool.name, code: "internal", cause: describeError(error) }, "mcp tool failed");
    return toolError(`${tool.name} failed because of an internal error`, "internal");
  }
}
