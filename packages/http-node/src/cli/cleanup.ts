import { resolveRetention } from "@vitrina/core/capabilities";
import { retentionFromEnv } from "../config/retention-from-env.js";
import { noExtraArguments, type CliCommand } from "./command.js";
import { printJson, printNote } from "./output.js";

/** Runs retention once with the configured settings and prints the count per kind as JSON. */
export const cleanupCommand: CliCommand = {
  name: "cleanup",
  summary: "apply retention now and print what it removed per kind (--dry-run: count only)",
  usage: "vitrina cleanup [--dry-run]",
  flags: { "dry-run": { type: "boolean" } },
  prepare(args, flags) {
    noExtraArguments(args, 0);
    return async (ctx) => {
      const settings = ctx.vitrina.maintenance.retention ?? resolveRetention(retentionFromEnv(ctx.env));
      const report = await ctx.vitrina.maintenance.runRetention({ dryRun: flags["dry-run"] === true, settings });
      const { extra, ...counts } = report;
      printJson(ctx.out, {
        ...counts,
        ...extra,
        settings: {
          deliveriesDays: settings.deliveriesDays,
          leadPayloadsDays: settings.leadPayloadsDays,
          messageTextDays: settings.messageTextDays,
        },
      });
      if (!report.complete) printNote(ctx.out, "The time budget ran out; run it again to carry on.");
    };
  },
};
