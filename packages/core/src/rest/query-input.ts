import { VitrinaError } from "../errors.js";

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
};

/** The JSON types a schema allows (following `anyOf`, as zod writes optional and nullable fields). */
function typesOf(schema: JsonSchema | undefined): Set<string> {
  const types = new Set<string>();
  if (schema === undefined) return types;
  for (const t of Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type])
    types.add(t);
  for (const branch of schema.anyOf ?? []) for (const t of typesOf(branch)) types.add(t);
  return types;
}

/** One query-string value as the property's type wants it; left as a string when it doesn't parse (validation says why). */
function scalar(value: string, schema: JsonSchema | undefined): unknown {
  const types = typesOf(schema);
  if ((types.has("integer") || types.has("number")) && value.trim() !== "" && Number.isFinite(Number(value)))
    return Number(value);
  if (types.has("boolean") && (value === "true" || value === "false")) return value === "true";
  if (types.has("null") && value === "null" && !types.has("string")) return null;
  return value;
}

/**
 * A query's input from `GET` query parameters, typed by the capability's published input schema:
 * numbers, booleans and arrays (`?sku=a&sku=b`) of scalars. Objects can't be written as query
 * parameters; a capability whose input has one is called with `POST` and a JSON body.
 */
export function inputFromQuery(params: URLSearchParams, inputSchema: Record<string, unknown>): Record<string, unknown> {
  const properties = (inputSchema as JsonSchema).properties ?? {};
  const input: Record<string, unknown> = {};
  for (const name of new Set(params.keys())) {
    const property = properties[name];
    const values = params.getAll(name);
    if (typesOf(property).has("object")) {
      throw new VitrinaError(
        "invalid_argument",
        `${name} is an object: call this capability with POST and a JSON body`,
        {
          reasons: [{ field: name, reason: "objects can't be sent as query parameters; use POST" }],
        },
      );
    }
    input[name] = typesOf(property).has("array")
      ? values.map((value) => scalar(value, property?.items))
      : scalar(values[values.length - 1]!, property);
  }
  return input;
}
