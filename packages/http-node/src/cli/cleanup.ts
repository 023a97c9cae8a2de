import { VitrinaError, type RetentionOptions } from "@vitrina/core";
import { resolveRetention } from "@vitrina/core/capabilities";
import { noExtraArguments, type CliCommand } from "./command.js";

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
 * Retention settings shared by the CLI's worker and `cleanup`, from the environment:
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

/** Runs retention once with the configured settings and prints the count per kind as JSON. */
export const cleanupCommand: CliCommand = {
  name: "cleanup",
  summary: "apply retention now and print what it removed per kind (--dry-run: count only)",
  usage: "vitrina cleanup [--dry-run]",
  flags: { "dry-run": { type: "boolean" } },
  prepare(args, flags) {
    noExtraArguments(args, 0);
    return async (ctx) => {
      const settings = ctx.vitrina.maintenance.retention ?? resolveRetention(retentionFromEnv(process.env));
      const report = await ctx.vitrina.maintenance.runRetention({ dryRun: flags["dry-run"] === true, settings });
      const { extra, ...counts } = report;
      console.log(
        JSON.stringify(
          {
            ...counts,
            ...extra,
            settings: {
              deliveriesDays: settings.deliveriesDays,
              leadPayloadsDays: settings.leadPayloadsDays,
              messageTextDays: settings.messageTextDays,
            },
          },
          null,
          2,
        ),
      );
      if (!report.complete) console.error("The time budget ran out; run it again to carry on.");
    };
  },
};
