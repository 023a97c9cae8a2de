import { z } from "zod";
import { namedSchema, type OperationDoc } from "../http/route-doc.js";
import { leadPayloadSchema } from "./lead-schema.js";

const fieldReason = z.object({ field: z.string(), reason: z.string() });

/** `LeadIntakeResponse` as the OpenAPI document publishes it. */
const leadIntakeResponseSchema = namedSchema(
  "LeadIntakeResponse",
  z.object({
    accepted: z.boolean(),
    duplicate: z.boolean(),
    lead_event_id: z.string(),
    contact_id: z.string(),
    opportunity_id: z.string(),
    eligible_for_whatsapp: z.boolean(),
    outbound: z.object({
      status: z.enum(["queued", "sent", "delivered", "read", "blocked", "failed"]).meta({
        description:
          "queued: accepted by the provider, no delivery report yet; sent, delivered, read, failed: the provider's latest report by webhook (never backwards); blocked: not sent (no consent, an opt-out, one welcome per day).",
      }),
      reason: z.string().nullable(),
    }),
    qualification: z.object({
      recorded: z.array(z.object({ field: z.string(), value: z.number() })),
      rejected: z.array(fieldReason),
    }),
  }),
);

/** `POST /functions/v1/lead-intake`, signed with the connector's secret (the `lead*` security schemes). */
export const leadIntakeOperation: OperationDoc = {
  tags: ["lead intake"],
  operationId: "lead_intake",
  summary:
    "Receives one signed lead: contact, opportunity and (with consent) a first WhatsApp message, idempotent on source_lead_id.",
  description:
    "The timestamp header is Unix time in milliseconds and must be within the replay window (default 5 minutes either way); the signature is the hex HMAC-SHA256 of `<timestamp>.<raw body>`.",
  security: [{ leadConnector: [], leadTimestamp: [], leadSignature: [] }],
  requestBody: { schema: leadPayloadSchema },
  responses: {
    "200": {
      description: "Accepted (a resend answers the first outcome with duplicate: true).",
      schema: leadIntakeResponseSchema,
    },
  },
  errors: [400, 401, 413, 415, 422],
};
