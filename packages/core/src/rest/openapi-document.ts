import { z } from "zod";
import { CATALOG_DOCUMENT_VERSION } from "../capabilities/catalog-document.js";
import { toCatalogJsonSchema } from "../capabilities/json-schema.js";
import { STATUS_BY_CODE } from "../http/json.js";
import type { Route } from "../http/router.js";
import {
  isNamedSchema,
  type DocSchema,
  type JsonSchema,
  type OperationDoc,
  type ResponseDoc,
  type RouteOpenApi,
} from "../http/route-doc.js";
import type { EventHeaderNames, LeadHeaderNames } from "../resolved-options.js";
import { eventWebhooks, eventSecuritySchemes } from "./openapi-events.js";

export interface OpenApiOptions {
  /** Where the API is served: the public origin (when configured) and the mount prefix. */
  serverUrl: string;
  leadHeaders: LeadHeaderNames;
  eventHeaders: EventHeaderNames;
}

/** Every route may answer these, whatever it does: the prelude's refusals and the storage's failures. */
const EVERY_ROUTE_ERRORS = [500, 503];

const ERROR_TEXT: Record<number, string> = {
  400: "The request is malformed (a parameter, a header, the JSON).",
  401: "No valid credential.",
  403: "The credential lacks a scope or role.",
  404: "Not found.",
  405: "The method is not allowed here; `Allow` lists those that are.",
  409: "Conflicts with the current state (for commands: the same idempotency key still executing; see Retry-After).",
  413: "The body is over the size limit.",
  415: "The body is not application/json.",
  422: "Validation failed (`reasons` names each field), or an idempotency key was reused with another input.",
  500: "An internal error, logged with its cause; or `body_already_consumed` (middleware in front of Vitrina read the body).",
  502: "The messaging provider refused or could not be reached.",
  503: "`shutting_down` (this instance is closing), `storage_unavailable` or `storage_timeout`: retry, after Retry-After when given.",
};

const RETRY_AFTER = {
  description: "Seconds to wait before retrying.",
  schema: { type: "integer", minimum: 0 },
};
const HEADERS_BY_STATUS: Record<number, Record<string, unknown>> = {
  401: {
    "WWW-Authenticate": {
      description:
        'The Bearer challenge (RFC 6750): `Bearer realm="vitrina"`, or with OAuth on the surface\'s `resource_metadata` URL (RFC 9728).',
      schema: { type: "string" },
    },
  },
  403: {
    "WWW-Authenticate": {
      description: 'To an OAuth caller: `error="insufficient_scope"` with the scopes to ask for.',
      schema: { type: "string" },
    },
  },
  405: { Allow: { description: "The methods this path answers.", schema: { type: "string" } } },
  409: { "Retry-After": RETRY_AFTER },
  503: { "Retry-After": RETRY_AFTER },
};

const errorRef = (status: number) => ({ $ref: `#/components/responses/Error${status}` });
const json = (schema: unknown, contentType = "application/json") => ({ [contentType]: { schema } });

/** Converts a route's schema, publishing named ones (at any depth of a JSON Schema) once under `components.schemas`. */
function schemaConverter(components: Record<string, unknown>) {
  const convert = (schema: unknown, io: "input" | "output"): unknown => {
    if (isNamedSchema(schema)) {
      components[schema.id] ??= convert(schema.schema, io);
      return { $ref: `#/components/schemas/${schema.id}` };
    }
    if (schema instanceof z.ZodType) return toCatalogJsonSchema(schema, io);
    if (Array.isArray(schema)) return schema.map((item) => convert(item, io));
    if (schema === null || typeof schema !== "object") return schema;
    return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, convert(value, io)]));
  };
  return convert as (schema: DocSchema, io: "input" | "output") => unknown;
}

/** `/v1/webhooks/:id` → `/v1/webhooks/{id}`, and the path parameters it names. */
function openApiPath(path: string): { path: string; parameters: JsonSchema[] } {
  const names = path
    .split("/")
    .filter((s) => s.startsWith(":"))
    .map((s) => s.slice(1));
  return {
    path: path.replace(/:([A-Za-z0-9_]+)/g, "{$1}"),
    parameters: names.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
  };
}

function renderOperation(doc: OperationDoc, pathParameters: JsonSchema[], convert: ReturnType<typeof schemaConverter>) {
  const response = (answer: ResponseDoc) => ({
    description: answer.description,
    ...(answer.headers && { headers: answer.headers }),
    ...(answer.schema && { content: json(convert(answer.schema, "output"), answer.contentType) }),
  });
  // An answer the route describes itself (/readyz's 503 body) wins over the shared error body.
  const errors = [...new Set([...doc.errors, ...EVERY_ROUTE_ERRORS])]
    .filter((status) => !(status in doc.responses))
    .sort();
  const parameters = [...pathParameters, ...(doc.parameters ?? [])];
  return {
    tags: doc.tags,
    operationId: doc.operationId,
    summary: doc.summary,
    ...(doc.description && { description: doc.description }),
    security: doc.security,
    ...(parameters.length > 0 && { parameters }),
    ...(doc.requestBody && {
      requestBody: {
        required: doc.requestBody.required ?? true,
        content: json(convert(doc.requestBody.schema, "input"), doc.requestBody.contentType),
      },
    }),
    responses: {
      ...Object.fromEntries(Object.entries(doc.responses).map(([status, answer]) => [status, response(answer)])),
      ...Object.fromEntries(errors.map((status) => [String(status), errorRef(status)])),
    },
  };
}

/** The concrete operations a route documents: one, or one per path for an expanded route. */
function operationsOf(route: Route, doc: Exclude<RouteOpenApi, false>): Array<[string, JsonSchema[], OperationDoc]> {
  if ("expand" in doc) {
    return Object.entries(doc.expand()).map(([path, operation]) => {
      const { parameters } = openApiPath(path.replace(/\{([^}]+)\}/g, ":$1"));
      return [path, parameters, operation];
    });
  }
  const { path, parameters } = openApiPath(route.path);
  return [[path, parameters, doc]];
}

/** The error body every route answers, with its stable codes. */
const errorBody = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message", "reasons"],
      properties: {
        code: { type: "string", enum: Object.keys(STATUS_BY_CODE) },
        message: { type: "string" },
        reasons: {
          type: "array",
          items: {
            type: "object",
            required: ["field", "reason"],
            properties: { field: { type: "string" }, reason: { type: "string" } },
          },
        },
        request_id: { type: "string" },
      },
    },
  },
};

const TAG_TEXT: Record<string, string> = {
  catalog: "Public discovery documents: the capability catalog, the event schemas, this document.",
  capabilities: "The capability core over REST, as in GET /v1/capabilities.",
  webhooks: "Subscriptions, delivery history and resend.",
  admin: "Connectors, API keys, members, the WhatsApp channel, contacts' consent and privacy requests.",
  "lead intake": "Leads signed by a connector's secret.",
  health: "Probes for load balancers and orchestrators.",
  events: "What subscribers receive.",
};

/**
 * The OpenAPI 3.1 document of this Vitrina, built by walking its routes (each carries its
 * operation, see `route-doc.ts`), so embedders' capabilities and every surface that is on appear,
 * and nothing is described that isn't served.
 */
export function buildOpenApiDocument(routes: Route[], options: OpenApiOptions): JsonSchema {
  const schemas: Record<string, unknown> = { Error: errorBody };
  const convert = schemaConverter(schemas);
  const paths: Record<string, Record<string, unknown>> = {};
  const statuses = new Set<number>(EVERY_ROUTE_ERRORS);
  for (const route of routes) {
    if (route.openapi === undefined || route.openapi === false) continue;
    for (const [path, parameters, doc] of operationsOf(route, route.openapi)) {
      doc.errors.forEach((status) => statuses.add(status));
      (paths[path] ??= {})[route.method.toLowerCase()] = renderOperation(doc, parameters, convert);
    }
  }
  const usedTags = new Set(
    Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => (op as { tags: string[] }).tags)),
  );
  return {
    openapi: "3.1.0",
    info: {
      title: "Vitrina",
      version: CATALOG_DOCUMENT_VERSION,
      description:
        "Every HTTP route this Vitrina serves besides the MCP, A2A and OAuth protocols and the console's pages (each described by its own protocol or for people), and the events sent to subscribers. Rate limits are not part of this interface.",
      license: { name: "MIT", identifier: "MIT" },
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    servers: [{ url: options.serverUrl }],
    tags: [...usedTags, "events"].map((name) => ({ name, description: TAG_TEXT[name] ?? name })),
    paths,
    webhooks: eventWebhooks(options.eventHeaders),
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description:
            "An API key. With the `oauth` option, REST also takes an OAuth access token issued for its resource; the webhook and admin APIs take API keys only.",
        },
        leadConnector: {
          type: "apiKey",
          in: "header",
          name: options.leadHeaders.connectorId,
          description: "The connector's id.",
        },
        leadTimestamp: {
          type: "apiKey",
          in: "header",
          name: options.leadHeaders.timestamp,
          description: "Unix time in milliseconds (digits only), within the replay window of the server's clock.",
        },
        leadSignature: {
          type: "apiKey",
          in: "header",
          name: options.leadHeaders.signature,
          description: 'hex HMAC-SHA256 of "<timestamp>.<raw body>" with the connector\'s secret',
        },
        ...eventSecuritySchemes(options.eventHeaders),
      },
      schemas,
      responses: Object.fromEntries(
        [...statuses].sort().map((status) => [
          `Error${status}`,
          {
            description: ERROR_TEXT[status] ?? `HTTP ${status}.`,
            ...(HEADERS_BY_STATUS[status] && { headers: HEADERS_BY_STATUS[status] }),
            content: json({ $ref: "#/components/schemas/Error" }),
          },
        ]),
      ),
    },
  };
}
