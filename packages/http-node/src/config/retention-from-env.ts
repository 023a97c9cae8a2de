import { VitrinaError, type RetentionOptions } from "@vitrina/core";

/** `30` → 30 days, `keep` → kept forever; absent → the documented default. */
function days(value: string | undefined, name: string): number | null | undefined {
  if (value === undefined || value === "") return undefined;
  if (value === "keep") return null;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) {
    throw new VitrinaError("invalid_argument", `${name} must be a number of days or "keep"`, {
      reasons: [{ field: name, reason: 'must be a number of days or "keep"' }],
    });
  }
  return parsed;
}

/**
 * Retention settings from the environment, shared by the CLI's worker and `cleanup`:
 * VITRINA_RETENTION_DELIVERIES_DAYS (default 30), VITRINA_RETENTION_LEAD_PAYLOADS_DAYS and
 * VITRINA_RETENTION_MESSAGE_TEXT_DAYS (default keep), each a number of days or `keep`.
 */
export function retentionFromEnv(env: Record<string, string | undefined>): RetentionOptions {
  const options: RetentionOptions = {};
  const deliveries = days(env.VITRINA_RETENTION_DELIVERIES_DAYS, "VITRINA_RETENTION_DELIVERIES_DAYS");
  const leadPayloads = days(env.VITRINA_RETENTION_LEAD_PAYLOADS_DAYS, "VITRINA_RETENTION_LEAD_PAYLOADS_DAYS");
  if (deliveries !== undefined) options.deliveriesDays = deliveries;
  if (leadPayloads !== undefined) options.leadPayloadsDays = leadPayloads;
  const messageText = days(env.VITRINA_RETENTION_MESSAGE_TEXT_DAYS, "VITRINA_RETENTION_MESSAGE_TEXT_DAYS");
  if (messageText !== undefined) options.messageTextDays = messageText;
  return options;
}
