import { z } from "zod";
import { namedSchema } from "../http/route-doc.js";
import { connectorLeadViewSchema } from "./admin-view-schemas.js";
import { FIRST_MESSAGE_FILTERS } from "./lead-list-input.js";

// The answers of `/v1/leads…` and `/v1/connectors/{id}/refusals` as the OpenAPI document publishes
// them, beside `lead-views.ts` which builds them.

const timestamp = z.string().meta({ format: "date-time" });
const connectorLead = connectorLeadViewSchema.schema as z.ZodObject<z.ZodRawShape>;

export const workspaceLeadViewSchema = namedSchema(
  "Lead",
  connectorLead.omit({ object: true }).extend({
    object: z.literal("lead"),
    connector_id: z.string(),
    contact_id: z.string(),
    opportunity_id: z.string(),
    conversation_id: z.string().nullable(),
  }),
);

export const leadRefusalViewSchema = namedSchema(
  "LeadRefusal",
  z.object({
    id: z.string(),
    object: z.literal("lead_refusal"),
    connector_id: z.string(),
    at: timestamp,
    code: z.string(),
    fields: z.array(z.string()).meta({ description: "Paths of the fields (or header names) at fault; never values." }),
    timestamp_skew_ms: z.number().int().nullable(),
    request_id: z.string().nullable(),
    unrecorded_before: z.number().int().meta({ description: "Refusals over the recording rate just before this one." }),
  }),
);

export const firstMessageRetrySchema = namedSchema(
  "FirstMessageRetry",
  z.object({
    object: z.literal("first_message_retry"),
    lead_id: z.string(),
    retried: z.literal(true),
    outbound: z.object({ status: z.string(), reason: z.string().nullable() }),
  }),
);

/** The filters of `GET /v1/leads`, besides the page's. */
export const LEAD_LIST_PARAMETERS = [
  { name: "connector_id", in: "query", schema: { type: "string", format: "uuid" } },
  { name: "first_message_status", in: "query", schema: { type: "string", enum: [...FIRST_MESSAGE_FILTERS] } },
  { name: "duplicate", in: "query", schema: { type: "boolean" } },
];
