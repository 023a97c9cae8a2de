import type { CapabilityDescriptor } from "../capabilities/definition.js";
import { namedSchema, type ExpandedDoc, type OperationDoc } from "../http/route-doc.js";
import { typesOf } from "./query-input.js";
import { REST_PATH } from "./rest-options.js";

type Schema = Record<string, unknown>;

/** JSON Schema dialect markers are the document's business, not each schema's. */
function bare(schema: Schema): Schema {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

const provenance = namedSchema("Provenance", {
  type: "object",
  required: ["source", "observedAt", "freshness", "authoritative", "fallbackUsed"],
  properties: {
    source: { type: "string" },
    observedAt: { type: "string", format: "date-time" },
    freshness: {
      type: "string",
      enum: ["live", "recorded"],
      description: "`recorded`: the stored outcome of an earlier call with the same idempotency key.",
    },
    authoritative: { type: "boolean" },
    fallbackUsed: { type: "boolean" },
  },
});

/** An operation id from a capability name: `catalog.search` → `catalog_search`. */
const operationId = (name: string, method: string) => `${name.replace(/[^A-Za-z0-9]/g, "_")}_${method}`;

/**
 * `GET` query parameters for a query's scalar and array-of-scalar input properties. An object, or
 * one that may be null, is left out: inputFromQuery refuses it and asks for `POST`.
 */
function queryParameters(d: CapabilityDescriptor): Schema[] {
  const properties = (d.inputSchema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((d.inputSchema.required ?? []) as string[]);
  return Object.entries(properties)
    .filter(([, schema]) => !typesOf(schema).has("object"))
    .map(([name, schema]) => ({
      name,
      in: "query",
      required: required.has(name),
      schema,
      ...(schema.type === "array" && { style: "form", explode: true }),
    }));
}

function capabilityOperation(d: CapabilityDescriptor, method: "GET" | "POST"): OperationDoc {
  const keyed = d.idempotency.strategy === "logical-attempt";
  return {
    tags: ["capabilities"],
    operationId: operationId(d.name, method.toLowerCase()),
    summary: d.summary,
    description: `Capability ${d.name} ${d.version} (${d.execution}, ${d.riskClass}); needs ${d.scopeMatch === "allOf" ? "all" : "one"} of the scopes: ${d.requiredScopes.join(", ")}.`,
    // One requirement object needs all its scopes; alternatives are separate objects (OpenAPI Security Requirement Object).
    security:
      d.scopeMatch === "allOf"
        ? [{ bearer: d.requiredScopes }]
        : d.requiredScopes.map((scope) => ({ bearer: [scope] })),
    parameters:
      method === "GET"
        ? queryParameters(d)
        : keyed
          ? [
              {
                name: "Idempotency-Key",
                in: "header",
                required: true,
                description:
                  "One key per change: the same key with the same input replays the recorded outcome; with another input it is 422 idempotency_key_reused; while the first call runs it is 409 with Retry-After.",
                schema: { type: "string", minLength: 1, maxLength: 255 },
              },
            ]
          : [],
    ...(method === "POST" && { requestBody: { schema: bare(d.inputSchema) } }),
    responses: {
      "200": {
        description: "The capability's output and where it came from.",
        ...(keyed && {
          headers: {
            "Idempotent-Replayed": {
              description: "`true` when this is the recorded outcome of an earlier call with the same key.",
              schema: { type: "string", enum: ["true"] },
            },
          },
        }),
        schema: {
          type: "object",
          required: ["output", "provenance"],
          properties: { output: bare(d.outputSchema), provenance },
        },
      },
    },
    // Only a body can be too large or not JSON; only a keyed command can be still running.
    errors: [400, 401, 403, 404, 422, ...(method === "POST" ? [413, 415] : []), ...(keyed ? [409] : [])],
  };
}

/**
 * `/v1/rest/{capability}` documented once per registered capability, from the registry at the
 * time the document is built: queries answer `GET` and `POST`, commands `POST` only.
 */
export function capabilityOperations(descriptors: () => CapabilityDescriptor[], method: "GET" | "POST"): ExpandedDoc {
  return {
    expand: () =>
      Object.fromEntries(
        descriptors()
          .filter((d) => method === "POST" || d.execution === "query")
          .map((d) => [`${REST_PATH}/${d.name}`, capabilityOperation(d, method)]),
      ),
  };
}
