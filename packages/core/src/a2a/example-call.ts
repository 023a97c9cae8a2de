import type { CapabilityDescriptor } from "../capabilities/definition.js";

type Schema = Record<string, unknown>;

/** A placeholder of the schema's type: its first enum value or example when it has one. */
function placeholder(schema: Schema, depth: number): unknown {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "object":
      return depth > 3 ? {} : requiredFields(schema, depth + 1);
    case "array":
      return [];
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 1;
    case "boolean":
      return true;
    case "string":
      return schema.format === "email" ? "ana@example.com" : `<${schema.format ?? "string"}>`;
    default:
      return null;
  }
}

function requiredFields(schema: Schema, depth: number): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return Object.fromEntries(required.map((name) => [name, placeholder(properties[name] ?? {}, depth)]));
}

/**
 * The data part a skill's example shows: the capability's required input fields with placeholders.
 * The catalog has no examples of its own, and a skill's `examples` are strings, so this is the
 * shape of a call rather than a prompt; the catalog's schema says what each field accepts.
 */
export function exampleCall(descriptor: CapabilityDescriptor): { capability: string; input: unknown } {
  return { capability: descriptor.name, input: requiredFields(descriptor.inputSchema, 0) };
}
