import type { CapabilityDescriptor } from "../capabilities/definition.js";
import { CATALOG_DOCUMENT_VERSION } from "../capabilities/catalog-document.js";
import { toCatalogJsonSchema } from "../capabilities/json-schema.js";
import { eventJsonSchemas } from "../events/event-schemas.js";
import { EVENT_TYPES } from "../events/event-types.js";
import { STATUS_BY_CODE } from "../http/json.js";
import { leadPayloadSchema } from "../leads/lead-schema.js";
import { subscriptionBodySchemas } from "../webhooks/subscription-input.js";
import { SIGNATURE_SCHEMES } from "../webhooks/signing-schemes.js";
import { TEST_EVENT_TYPE } from "../webhooks/test-delivery.js";
import { deliveryFilterParameters, endpointApiPaths, lastAttemptSchema } from "../webhooks/endpoint-openapi.js";
import { typesOf } from "./query-input.js";
import { REST_PATH } from "./rest-options.js";

type Schema = Record<string, unknown>;

export interface OpenApiOptions {
  /** Where the API is served: the public origin (when configured) and the mount prefix. */
  serverUrl: string;
  /** Whether `/v1/rest/{capability}` is served: its paths are described only then. */
  rest: boolean;
  /** `X-Vitrina-…` header names of lead intake (they follow `headerPrefix`). */
  leadHeaders: { connectorId: string; timestamp: string; signature: string };
  /** The signature and event-id headers of webhook deliveries (they follow `headerPrefix`). */
  eventHeaders: { signature: string; eventId: string };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Schema) => ({ "application/json": { schema } });
/** The error answers every operation may give, by status, all with the one error body. */
const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [String(status), { $ref: `#/components/responses/Error${status}` }]));

/** JSON Schema dialect markers are the document's business, not each schema's. */
function bare(schema: Schema): Schema {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

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

function capabilityPaths(descriptors: CapabilityDescriptor[]): Record<string, Schema> {
  const paths: Record<string, Schema> = {};
  for (const d of descriptors) {
    const keyed = d.idempotency.strategy === "logical-attempt";
    const common = {
      tags: ["capabilities"],
      summary: d.summary,
      description: `Capability ${d.name} ${d.version} (${d.execution}, ${d.riskClass}); needs ${d.scopeMatch === "allOf" ? "all" : "one"} of the scopes: ${d.requiredScopes.join(", ")}.`,
      // One requirement object needs all its scopes; alternatives are separate objects (OpenAPI Security Requirement Object).
      security:
        d.scopeMatch === "allOf"
          ? [{ bearer: d.requiredScopes }]
          : d.requiredScopes.map((scope) => ({ bearer: [scope] })),
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
          content: json({
            type: "object",
            required: ["output", "provenance"],
            properties: { output: bare(d.outputSchema), provenance: ref("Provenance") },
          }),
        },
        ...errors(400, 401, 403, 404, 422, 500),
        ...(keyed ? errors(409) : {}),
      },
    };
    const post = {
      ...common,
      operationId: operationId(d.name, "post"),
      // Only a body can be too large or not JSON.
      responses: { ...common.responses, ...errors(413, 415) },
      ...(keyed && {
        parameters: [
          {
            name: "Idempotency-Key",
            in: "header",
            required: true,
            description:
              "One key per change: the same key with the same input replays the recorded outcome; with another input it is 422 idempotency_key_reused; while the first call runs it is 409 with Retry-After.",
            schema: { type: "string", minLength: 1, maxLength: 255 },
          },
        ],
      }),
      requestBody: { required: true, content: json(bare(d.inputSchema)) },
    };
    paths[`${REST_PATH}/${d.name}`] =
      d.execution === "query"
        ? { get: { ...common, operationId: operationId(d.name, "get"), parameters: queryParameters(d) }, post }
        : { post };
  }
  return paths;
}

const subscriptionView: Schema = {
  type: "object",
  required: ["id", "url", "events", "enabled", "created_at"],
  properties: {
    id: { type: "string" },
    url: { type: "string", format: "uri" },
    events: { type: "array", items: { type: "string", enum: [...EVENT_TYPES] } },
    enabled: { type: "boolean" },
    object: { type: "string", const: "webhook_subscription" },
    signature_scheme: {
      type: "string",
      enum: [...SIGNATURE_SCHEMES],
      description:
        "vitrina: one <prefix>-Signature header (t=…,v1=<hex>). standard-webhooks: webhook-id, webhook-timestamp and webhook-signature (v1,<base64>). Set at creation, never changed.",
    },
    previous_secret_expires_at: {
      anyOf: [{ type: "string", format: "date-time" }, { type: "null" }],
      description:
        "Until this time deliveries are signed with the secret the last rotation replaced too (one more signature); null when there is none.",
    },
    secret: {
      type: "string",
      description:
        "Only in the answer to a create that gave no secret (standard-webhooks): the generated whsec_ secret, shown this once.",
    },
    disabled_reason: { anyOf: [{ type: "string" }, { type: "null" }] },
    failing_since: { anyOf: [{ type: "string", format: "date-time" }, { type: "null" }] },
    last_attempt: lastAttemptSchema,
    created_at: { type: "string", format: "date-time" },
    updated_at: { type: "string", format: "date-time" },
  },
};

const deliveryView: Schema = {
  type: "object",
  required: ["id", "event_id", "event_type", "status", "attempt_count"],
  properties: {
    id: { type: "string" },
    event_id: { type: "string" },
    // A subscription's history also lists its test deliveries, which no subscription can choose.
    event_type: { type: "string", enum: [...EVENT_TYPES, TEST_EVENT_TYPE] },
    status: { type: "string", enum: ["pending", "succeeded", "failed"] },
    object: { type: "string", const: "webhook_delivery" },
    subscription_id: { type: "string" },
    attempt_count: { type: "integer" },
    next_attempt_at: { anyOf: [{ type: "string", format: "date-time" }, { type: "null" }] },
    retry_until: { type: "string", format: "date-time" },
    last_error: { anyOf: [{ type: "string" }, { type: "null" }] },
    created_at: { type: "string", format: "date-time" },
    delivered_at: { anyOf: [{ type: "string", format: "date-time" }, { type: "null" }] },
    attempts: {
      type: "array",
      items: {
        type: "object",
        properties: {
          number: { type: "integer" },
          attempted_at: { type: "string", format: "date-time" },
          status_code: { anyOf: [{ type: "integer" }, { type: "null" }] },
          duration_ms: { type: "number" },
          error: { anyOf: [{ type: "string" }, { type: "null" }] },
          response_body_prefix: {
            anyOf: [{ type: "string" }, { type: "null" }],
            description: "The first 1024 bytes of the receiver's answer as UTF-8 text; null when no answer came.",
          },
          request_headers: {
            anyOf: [{ type: "object", additionalProperties: { type: "string" } }, { type: "null" }],
            description: "Only on one delivery's own page: the headers sent, signatures redacted.",
          },
        },
      },
    },
  },
};

const page = (item: Schema) => ({
  type: "object",
  required: ["object", "data", "has_more"],
  properties: {
    object: { type: "string", const: "list" },
    data: { type: "array", items: item },
    has_more: { type: "boolean" },
  },
});

function webhookApiPaths(): Record<string, Schema> {
  const id = { name: "id", in: "path", required: true, schema: { type: "string" } };
  const read = [{ bearer: ["webhooks:read"] }];
  const write = [{ bearer: ["webhooks:write"] }];
  const tags = ["webhooks"];
  return {
    "/v1/webhooks": {
      get: {
        tags,
        operationId: "webhooks_list",
        summary: "Lists the workspace's subscriptions.",
        security: read,
        responses: {
          "200": { description: "Subscriptions.", content: json(page(ref("Subscription"))) },
          ...errors(400, 401, 403),
        },
      },
      post: {
        tags,
        operationId: "webhooks_create",
        summary: "Subscribes a URL to event types; the secret is stored sealed and never shown again.",
        security: write,
        requestBody: { required: true, content: json(toCatalogJsonSchema(subscriptionBodySchemas.create, "input")) },
        responses: {
          "201": { description: "Created.", content: json(ref("Subscription")) },
          ...errors(400, 401, 403, 413, 415, 422),
        },
      },
    },
    "/v1/webhooks/{id}": {
      parameters: [id],
      get: {
        tags,
        operationId: "webhooks_get",
        summary: "One subscription.",
        security: read,
        responses: {
          "200": { description: "The subscription.", content: json(ref("Subscription")) },
          ...errors(400, 401, 403, 404),
        },
      },
      patch: {
        tags,
        operationId: "webhooks_update",
        summary:
          "Changes URL, event types, secret, or enables/disables it. A new secret rolls: the replaced one keeps signing too for rotation.grace_seconds (default 24 h; 0 switches at once).",
        security: write,
        requestBody: { required: true, content: json(toCatalogJsonSchema(subscriptionBodySchemas.update, "input")) },
        responses: {
          "200": { description: "Updated.", content: json(ref("Subscription")) },
          ...errors(400, 401, 403, 404, 413, 415, 422),
        },
      },
      delete: {
        tags,
        operationId: "webhooks_delete",
        summary: "Deletes the subscription and stops its pending deliveries.",
        security: write,
        responses: { "204": { description: "Deleted." }, ...errors(400, 401, 403, 404) },
      },
    },
    "/v1/webhooks/{id}/deliveries": {
      parameters: [id],
      get: {
        tags,
        operationId: "webhooks_deliveries",
        summary: "Delivery history, newest first, with every attempt.",
        security: read,
        parameters: [
          { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100 } },
          { name: "starting_after", in: "query", schema: { type: "string" } },
          ...deliveryFilterParameters,
        ],
        responses: {
          "200": { description: "Deliveries.", content: json(page(ref("Delivery"))) },
          ...errors(400, 401, 403, 404, 422),
        },
      },
    },
    ...endpointApiPaths({ json, errors, ref }),
    "/v1/webhooks/{id}/deliveries/{deliveryId}/resend": {
      parameters: [id, { name: "deliveryId", in: "path", required: true, schema: { type: "string" } }],
      post: {
        tags,
        operationId: "webhooks_resend",
        summary: "Makes a delivery due again now (a new attempt, same event id).",
        security: write,
        responses: {
          "202": { description: "Rescheduled: due now.", content: json(ref("Delivery")) },
          ...errors(400, 401, 403, 404, 409),
        },
      },
    },
    "/v1/webhooks/{id}/test": {
      parameters: [id],
      post: {
        tags,
        operationId: "webhooks_test",
        summary: `Sends a synthetic ${TEST_EVENT_TYPE} event to this subscription only, through the outbox (409 when it is disabled).`,
        security: write,
        responses: {
          "202": {
            description: "Queued: due now, listed in the delivery history.",
            content: json({
              type: "object",
              required: ["delivery_id", "event_id"],
              properties: { delivery_id: { type: "string" }, event_id: { type: "string" } },
            }),
          },
          ...errors(400, 401, 403, 404, 409),
        },
      },
    },
  };
}

function leadIntakePath(): Record<string, Schema> {
  return {
    "/functions/v1/lead-intake": {
      post: {
        tags: ["lead intake"],
        operationId: "lead_intake",
        summary:
          "Receives one signed lead: contact, opportunity and (with consent) a first WhatsApp message, idempotent on source_lead_id.",
        security: [{ leadConnector: [], leadTimestamp: [], leadSignature: [] }],
        requestBody: { required: true, content: json(toCatalogJsonSchema(leadPayloadSchema, "input")) },
        responses: {
          "200": {
            description: "Accepted (a resend answers the first outcome with duplicate: true).",
            content: json({
              type: "object",
              required: ["accepted", "duplicate", "lead_event_id", "contact_id", "opportunity_id"],
              properties: {
                accepted: { type: "boolean" },
                duplicate: { type: "boolean" },
                lead_event_id: { type: "string" },
                contact_id: { type: "string" },
                opportunity_id: { type: "string" },
                eligible_for_whatsapp: { type: "boolean" },
                outbound: {
                  type: "object",
                  properties: {
                    status: {
                      type: "string",
                      enum: ["queued", "sent", "delivered", "read", "blocked", "failed"],
                      description:
                        "queued: accepted by the provider, no delivery report yet; sent, delivered, read, failed: the provider's latest report by webhook (never backwards); blocked: not sent (no consent, an opt-out, one welcome per day).",
                    },
                    reason: { anyOf: [{ type: "string" }, { type: "null" }] },
                  },
                },
                qualification: { type: "object" },
              },
            }),
          },
          ...errors(400, 401, 413, 415, 422, 500),
        },
      },
    },
  };
}

/** What a `standard-webhooks` subscription's deliveries carry instead of the signature header. */
const standardWebhooksHeaders = [
  { name: "webhook-id", description: "The event id (the same on every retry)." },
  { name: "webhook-timestamp", description: "Unix seconds." },
  {
    name: "webhook-signature",
    description:
      'v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with the base64-decoded whsec_ secret>; space-separated, one per secret during a rotation.',
  },
].map((header) => ({
  ...header,
  in: "header",
  required: false,
  description: `${header.description} Sent to subscriptions with signature_scheme standard-webhooks (the Standard Webhooks spec).`,
  schema: { type: "string" },
}));

/** One OpenAPI `webhooks` entry per event type: what a subscriber's endpoint receives, signed. */
function eventWebhooks(headers: OpenApiOptions["eventHeaders"]): Record<string, Schema> {
  const schemas = eventJsonSchemas();
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          tags: ["events"],
          operationId: `event_${type.replace(/\./g, "_")}`,
          summary: `The ${type} event, POSTed to every enabled subscription that chose it (at least once: deduplicate on id).`,
          parameters: [
            {
              name: headers.signature,
              in: "header",
              // Absent from a standard-webhooks subscription's deliveries, which sign with webhook-*.
              required: false,
              description:
                't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the subscription\'s secret>; during a secret rotation, one v1 per secret. Sent to subscriptions with signature_scheme vitrina.',
              schema: { type: "string" },
            },
            ...standardWebhooksHeaders,
            { name: headers.eventId, in: "header", required: true, schema: { type: "string" } },
          ],
          requestBody: { required: true, content: json(bare(schemas[type])) },
          responses: { "2XX": { description: "Received; any other answer is retried with backoff for 24 hours." } },
        },
      },
    ]),
  );
}

/** The error body every route answers, with its stable codes. */
function errorBody(): Schema {
  return {
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
}

const STATUS_TEXT: Record<number, string> = {
  400: "The request is malformed (a parameter, a header, the JSON).",
  401: "No valid credential.",
  403: "The credential lacks a scope or role.",
  404: "Not found.",
  409: "Conflicts with the current state (for commands: the same idempotency key still executing; see Retry-After).",
  413: "The body is over the size limit.",
  415: "The body is not application/json.",
  422: "Validation failed (`reasons` names each field), or an idempotency key was reused with another input.",
  500: "An internal error; logged with its cause.",
};

/** The OpenAPI 3.1 document of this Vitrina: generated from the registry, so embedders' capabilities appear. */
export function buildOpenApiDocument(descriptors: CapabilityDescriptor[], options: OpenApiOptions): Schema {
  return {
    openapi: "3.1.0",
    info: {
      title: "Vitrina",
      version: CATALOG_DOCUMENT_VERSION,
      description:
        "Capabilities over REST (when enabled), the webhook subscriptions API, signed lead intake and the events sent to subscribers. Rate limits are not part of this interface.",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    servers: [{ url: options.serverUrl }],
    tags: [
      { name: "capabilities", description: "The capability core, as in GET /v1/capabilities." },
      { name: "webhooks", description: "Subscriptions, delivery history and resend." },
      { name: "lead intake", description: "Leads signed by a connector's secret." },
      { name: "events", description: "What subscribers receive." },
    ],
    paths: {
      ...(options.rest ? capabilityPaths(descriptors) : {}),
      ...webhookApiPaths(),
      ...leadIntakePath(),
    },
    webhooks: eventWebhooks(options.eventHeaders),
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description:
            "An API key. With the `oauth` option, REST and MCP also take an OAuth access token for their own resource; the webhook and admin APIs take API keys only.",
        },
        leadConnector: { type: "apiKey", in: "header", name: options.leadHeaders.connectorId },
        leadTimestamp: { type: "apiKey", in: "header", name: options.leadHeaders.timestamp },
        leadSignature: {
          type: "apiKey",
          in: "header",
          name: options.leadHeaders.signature,
          description: 'hex HMAC-SHA256 of "<timestamp>.<raw body>" with the connector\'s secret',
        },
      },
      schemas: {
        Error: errorBody(),
        Provenance: {
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
        },
        Subscription: subscriptionView,
        Delivery: deliveryView,
      },
      responses: Object.fromEntries(
        Object.entries(STATUS_TEXT).map(([status, description]) => [
          `Error${status}`,
          { description, content: json(ref("Error")) },
        ]),
      ),
    },
  };
}
