import { eventJsonSchemas } from "../events/event-schemas.js";
import { EVENT_TYPES } from "../events/event-types.js";
import type { EventHeaderNames } from "../resolved-options.js";

type Schema = Record<string, unknown>;

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

/**
 * How a subscriber authenticates a delivery: one of the two signature schemes a subscription
 * chooses (the receiver checks it; OpenAPI has no HMAC scheme, so each is an `apiKey` header).
 */
export function eventSecuritySchemes(headers: EventHeaderNames): Record<string, Schema> {
  return {
    eventSignature: {
      type: "apiKey",
      in: "header",
      name: headers.signature,
      description: 'signature_scheme vitrina: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">.',
    },
    standardWebhooksSignature: {
      type: "apiKey",
      in: "header",
      name: "webhook-signature",
      description: "signature_scheme standard-webhooks: see the Standard Webhooks spec.",
    },
  };
}

/** One OpenAPI `webhooks` entry per event type: what a subscriber's endpoint receives, signed. */
export function eventWebhooks(headers: EventHeaderNames): Record<string, Schema> {
  const schemas = eventJsonSchemas();
  return Object.fromEntries(
    EVENT_TYPES.map((type) => {
      const { $schema: _dialect, ...body } = schemas[type] as Schema;
      return [
        type,
        {
          post: {
            tags: ["events"],
            operationId: `event_${type.replace(/\./g, "_")}`,
            summary: `The ${type} event, POSTed to every enabled subscription that chose it (at least once: deduplicate on id).`,
            // Signed with the subscription's secret in the scheme it chose: either requirement.
            security: [{ eventSignature: [] }, { standardWebhooksSignature: [] }],
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
            requestBody: { required: true, content: { "application/json": { schema: body } } },
            responses: {
              "2XX": { description: "Received; any other answer is retried with backoff for 24 hours." },
              "4XX": {
                description: "Refused: retried like any other failure, until the subscription's retry window ends.",
              },
            },
          },
        },
      ];
    }),
  );
}
