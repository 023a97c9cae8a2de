/**
 * The MCP shapes that appear in `@vitrina/core/mcp`'s public types, written out here instead of
 * imported from the MCP SDK: the SDK is bundled into core's build (its own dependencies, Express and
 * Hono among them, were most of core's install), so a published declaration may not name its modules.
 * Each is the subset of the MCP 2025-06-18 schema core fills in; the SDK's types accept them.
 */

/** A tool's input or output JSON Schema as tools/list carries it: an object schema. */
export interface JsonObjectSchema {
  type: "object";
  properties?: Record<string, object>;
  required?: string[];
  [keyword: string]: unknown;
}

/** Hints for clients about what a tool does (MCP `ToolAnnotations`). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [hint: string]: unknown;
}

/** One entry of a tools/list result (MCP `Tool`). */
export interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObjectSchema;
  outputSchema?: JsonObjectSchema;
  annotations?: ToolAnnotations;
  _meta?: Record<string, unknown>;
  [field: string]: unknown;
}
