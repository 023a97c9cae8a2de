import { ValidationError, VitrinaError, type FieldReason } from "../errors.js";
import { isDecimal, notDecimal } from "../http/query-number.js";
import { UNRECOGNISED_FIELD } from "../validation.js";

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
};

/** The JSON types a schema allows (following `anyOf`, as zod writes optional and nullable fields). */
export function typesOf(schema: JsonSchema | undefined): Set<string> {
  const types = new Set<string>();
  if (schema === undefined) return types;
  for (const t of Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type])
    types.add(t);
  for (const branch of schema.anyOf ?? []) for (const t of typesOf(branch)) types.add(t);
  return types;
}

/**
 * One query-string value as the property's type wants it; left as a string when it doesn't parse
 * (validation says why). A number must be plain decimal: `?limit=0x10` is refused naming `limit`.
 */
function scalar(name: string, value: string, schema: JsonSchema | undefined): unknown {
  const types = typesOf(schema);
  const numeric = types.has("integer") ? "integer" : types.has("number") ? "number" : undefined;
  if (numeric !== undefined && isDecimal(value, numeric)) return Number(value);
  if (numeric !== undefined && !types.has("string") && Number.isFinite(Number(value)) && value.trim() !== "")
    throw notDecimal(name);
  if (types.has("boolean") && (value === "true" || value === "false")) return value === "true";
  if (types.has("null") && value === "null" && !types.has("string")) return null;
  return value;
}

/**
 * A query's input from `GET` query parameters, typed by the capability's published input schema:
 * numbers, booleans and arrays (`?sku=a&sku=b`) of scalars. Objects can't be written as query
 * parameters; a capability whose input has one is called with `POST` and a JSON body.
 *
 * Every parameter becomes an own key, `__proto__`, `constructor` and `prototype` included, so
 * validation refuses one the capability doesn't declare like any other unknown parameter: an
 * assignment `input["__proto__"] = …` would set the prototype and drop the parameter silently.
 */
export function inputFromQuery(params: URLSearchParams, inputSchema: Record<string, unknown>): Record<string, unknown> {
  const properties = (inputSchema as JsonSchema).properties ?? {};
  const entries: Array<[string, unknown]> = [];
  const refused: FieldReason[] = [];
  for (const name of new Set(params.keys())) {
    // Own properties only: `constructor` must not find Object.prototype's as its schema.
    const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
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
    try {
      const value = typesOf(property).has("array")
        ? values.map((each) => scalar(name, each, property?.items))
        : scalar(name, values[values.length - 1]!, property);
      entries.push([name, value]);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      refused.push(...error.reasons);
    }
  }
  if (refused.length === 0) return Object.fromEntries(entries);
  // Refused before validation sees the input, so the parameters it would have refused are named
  // here too: one answer lists every fix.
  for (const name of new Set(params.keys()))
    if (!Object.hasOwn(properties, name)) refused.push({ field: name, reason: UNRECOGNISED_FIELD });
  throw new ValidationError("query is invalid", refused);
}
