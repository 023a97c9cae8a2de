import { z } from "zod";
import { namedSchema } from "../http/route-doc.js";

// The admin API's answers as the OpenAPI document publishes them, beside `admin-views.ts` which
// builds them: a field added there without one here leaves the typed clients behind.

const timestamp = z.string().meta({ format: "date-time" });
const role = z.enum(["owner", "admin", "member"]);
const outboundStatus = z.enum(["queued", "sent", "delivered", "read", "blocked", "failed"]);

export const connectorViewSchema = namedSchema(
  "Connector",
  z.object({
    id: z.string(),
    object: z.literal("connector"),
    name: z.string(),
    system: z.string(),
    created_at: timestamp,
    rotated_at: timestamp.nullable(),
  }),
);

/** A connector with the secret it signs leads with: only in the answers to create and rotate. */
export const connectorSecretSchema = {
  type: "object",
  required: ["connector", "secret"],
  properties: {
    connector: connectorViewSchema,
    secret: { type: "string", description: "Shown this once; stored sealed." },
  },
};

export const apiKeyViewSchema = namedSchema(
  "ApiKey",
  z.object({
    id: z.string(),
    object: z.literal("api_key"),
    name: z.string(),
    prefix: z.string(),
    scopes: z.array(z.string()),
    created_at: timestamp,
    last_used_at: timestamp.nullable(),
    revoked_at: timestamp.nullable(),
  }),
);

export const memberViewSchema = namedSchema(
  "Member",
  z.object({
    object: z.literal("member"),
    user_id: z.string(),
    email: z.string().nullable(),
    role,
    added_at: timestamp,
  }),
);

export const connectorLeadViewSchema = namedSchema(
  "ConnectorLead",
  z.object({
    id: z.string(),
    object: z.literal("connector_lead"),
    received_at: timestamp,
    source_lead_id: z.string(),
    duplicate: z.boolean(),
    outbound_status: outboundStatus.nullable(),
    outbound_reason: z.string().nullable(),
    rejected_qualification: z.array(z.object({ field: z.string(), reason: z.string() })),
  }),
);

export const contactConsentViewSchema = namedSchema(
  "ContactConsent",
  z.object({
    id: z.string(),
    object: z.literal("contact"),
    name: z.string().nullable(),
    phone_e164: z.string().nullable(),
    whatsapp_user_id: z.string().nullable(),
    whatsapp_consent: z
      .object({
        granted: z.boolean(),
        timestamp: z.string().nullable(),
        source: z.string().nullable(),
        purpose: z.string().nullable(),
        connector_id: z.string().nullable(),
        lead_event_id: z.string().nullable(),
        recorded_at: timestamp,
      })
      .nullable(),
    whatsapp_opted_out_at: timestamp.nullable(),
    whatsapp_resumed_at: timestamp.nullable(),
    whatsapp_last_inbound_at: timestamp.nullable(),
    service_window: z.object({ open: z.boolean(), closes_at: timestamp.nullable() }),
  }),
);

export const consentEntryViewSchema = namedSchema(
  "ConsentChange",
  z.object({
    id: z.string(),
    object: z.literal("consent_change"),
    workspace_id: z.string(),
    contact_id: z.string(),
    kind: z.enum(["granted", "withdrawn", "opted_out", "resumed"]),
    source: z.string(),
    source_ref: z.string().nullable(),
    evidence: z.record(z.string(), z.unknown()).meta({ description: "As recorded." }),
    occurred_at: timestamp,
    recorded_at: timestamp,
    dedupe_key: z.string().nullable(),
  }),
);

export const whatsAppChannelViewSchema = namedSchema(
  "WhatsAppChannel",
  z.object({
    workspace_id: z.string(),
    phone_number_id: z.string(),
    sends_through: z.enum(["cloud_api", "messaging_transport"]),
    graph_base_url: z.string(),
    api_version: z.string(),
    opt_out_keywords: z.array(z.string()),
    opt_in_keywords: z.array(z.string()),
    default_keywords: z.object({ opt_out: z.boolean(), opt_in: z.boolean() }),
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

export const erasureSchema = namedSchema(
  "Erasure",
  z.object({
    id: z.string(),
    workspaceId: z.string(),
    contactId: z.string(),
    requestedBy: z.string().meta({ description: "`console:<user id>`, `api_key:<key id>`, `cli`, `service`…" }),
    erasedAt: timestamp,
    counts: z.record(z.string(), z.int()).meta({ description: "Rows erased or redacted, by kind." }),
  }),
);
