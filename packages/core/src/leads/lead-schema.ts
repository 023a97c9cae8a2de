import { z } from "zod";

/** ISO 8601 in UTC (`Z`), e.g. `2026-01-31T12:00:00Z` or with milliseconds. */
export const isoUtcTimestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/, {
    error: "must be an ISO 8601 UTC timestamp such as 2026-01-31T12:00:00Z",
  })
  .refine((value) => !Number.isNaN(Date.parse(value)), { error: "is not a real date and time" });

/** E.164: a leading `+`, a non-zero country digit, 7 to 15 digits in all. */
export const e164Phone = z
  .string({ error: "must be a string in E.164 format such as +56912345678" })
  .regex(/^\+[1-9]\d{6,14}$/, { error: "must be in E.164 format with a leading + (e.g. +56912345678)" });

const optionalText = (max: number) => z.string().trim().min(1).max(max).nullish();

/**
 * The lead payload, validated strictly: unknown keys are refused with their path rather than
 * silently dropped, except inside `metadata` (free-form, untrusted tracing data) and
 * `qualification` (checked field by field against the workspace's vertical, see qualification.ts).
 */
export const leadPayloadSchema = z.strictObject({
  event: z.literal("lead.created", { error: 'must be "lead.created"' }),
  source_lead_id: z
    .string({ error: "is required: the lead's id in the sending system" })
    .trim()
    .min(1, { error: "must not be empty" })
    .max(200, { error: "must be at most 200 characters" }),
  contact: z.strictObject(
    {
      phone_e164: e164Phone,
      name: optionalText(200),
      email: z.email({ error: "must be an email address" }).max(320).nullish(),
    },
    { error: "is required: an object with at least phone_e164" },
  ),
  context: z
    .strictObject({
      catalog_item_id: optionalText(200),
      source: optionalText(200),
      campaign_id: optionalText(200),
      landing_page: optionalText(2000),
    })
    .nullish(),
  qualification: z.record(z.string(), z.unknown(), { error: "must be an object of field: number" }).nullish(),
  whatsapp_consent: z
    .strictObject({
      granted: z.boolean({ error: "must be true or false" }),
      timestamp: isoUtcTimestamp.nullish(),
      source: optionalText(200),
      purpose: optionalText(500),
    })
    .nullish(),
  metadata: z.record(z.string(), z.unknown(), { error: "must be an object" }).nullish(),
});

export type LeadPayload = z.output<typeof leadPayloadSchema>;
