import { z } from "zod";

type JsonSchema = Record<string, unknown>;

/**
 * The JSON Schema the catalog publishes for a zod schema. Inputs render as the caller must send
 * them (`io: "input"`), outputs as the runtime returns them (`io: "output"`, where zod already
 * closes every object because parsing strips unknown keys).
 */
export function toCatalogJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
    unrepresentable: "any",
  });
  return withoutTypeArrays(json) as JsonSchema;
}

/** Keywords that describe a node rather than constrain one type: they stay on the `anyOf` node. */
const ANNOTATIONS = new Set(["title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly"]);

/**
 * Rewrites `type: ["string", "null"]` (what zod emits for a nullable primitive) as
 * `anyOf: [{ type: "string", … }, { type: "null" }]`, the form zod already uses for nullable
 * objects, enums and arrays. Both are valid JSON Schema, but Ajv in strict mode refuses union
 * types, and the MCP Inspector and several LLM tool-schema converters flag or mishandle them.
 */
export function withoutTypeArrays(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutTypeArrays);
  if (schema === null || typeof schema !== "object") return schema;
  const node = Object.fromEntries(Object.entries(schema).map(([key, child]) => [key, withoutTypeArrays(child)]));
  if (!Array.isArray(node.type)) return node;
  const annotations = Object.fromEntries(Object.entries(node).filter(([key]) => ANNOTATIONS.has(key)));
  const constraints = Object.fromEntries(
    Object.entries(node).filter(([key]) => key !== "type" && !ANNOTATIONS.has(key)),
  );
  const branches = (node.type as string[]).map((type) => (type === "null" ? { type } : { type, ...constraints }));
  return branches.length === 1 ? { ...annotations, ...branches[0] } : { ...annotations, anyOf: branches };
}

/**
 * Paths (JSON-pointer style) of every object node that does not say `additionalProperties: false`.
 * The catalog promises closed objects everywhere; the registry refuses a schema with any open one.
 */
export function openObjectPaths(schema: unknown, path = ""): string[] {
  if (Array.isArray(schema)) return schema.flatMap((child, i) => openObjectPaths(child, `${path}/${i}`));
  if (schema === null || typeof schema !== "object") return [];
  const node = schema as JsonSchema;
  const isObject =
    node.type === "object" || (Array.isArray(node.type) && node.type.includes("object")) || "properties" in node;
  const open = isObject && node.additionalProperties !== false ? [path === "" ? "/" : path] : [];
  const nested = Object.entries(node).flatMap(([key, child]) =>
    key === "properties" && child !== null && typeof child === "object"
      ? Object.entries(child).flatMap(([name, property]) => openObjectPaths(property, `${path}/properties/${name}`))
      : typeof child === "object"
        ? openObjectPaths(child, `${path}/${key}`)
        : [],
  );
  return [...open, ...nested];
}
