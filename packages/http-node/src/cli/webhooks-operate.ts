import { requireRole } from "@vitrina/core/capabilities";
import {
  noExtraArguments,
  positiveInteger,
  required,
  requiredPositional,
  type CliAction,
  type Flags,
} from "./command.js";
import { printList, printNote, printRecord } from "./output.js";

/** The largest recovery one call may ask for (the API's bound). */
const MAX_RECOVER = 1000;

export const operateUsage = `vitrina webhooks health  --workspace <id> --user <userId>
vitrina webhooks recover <subscriptionId> --since <ISO 8601 time> --workspace <id> --user <userId> [--limit 1-1000]`;

export const operateFlags = { since: { type: "string" }, limit: { type: "string" } } as const;

/**
 * `webhooks health`: every endpoint's state, success rate over the last 24 hours, last attempt and
 * failing-since. `webhooks recover <id> --since T`: resend its failed deliveries since T, at most
 * `--limit` (default 100) per run; it says when more are left, and running it again never resends
 * what the previous run requeued (they are no longer failed).
 */
export function prepareOperate(action: "health" | "recover", args: string[], flags: Flags): CliAction {
  const workspaceId = required(flags.workspace, "workspace");
  const actor = { userId: required(flags.user, "user") };
  if (action === "health") {
    noExtraArguments(args, 1);
    return async (ctx) => {
      await requireRole(ctx.vitrina.storage, actor, workspaceId, ["owner", "admin"], "read webhook health");
      const rows = await ctx.vitrina.webhooks.healthOfAll(workspaceId);
      const percent = (rate: number | null) => (rate === null ? "-" : `${Math.round(rate * 1000) / 10}%`);
      printList(ctx.out, rows, [
        ["ID", (h) => h.subscription_id],
        ["STATE", (h) => (h.disabled_reason === null ? h.state : `${h.state} (${h.disabled_reason})`)],
        ["SUCCESS 24H", (h) => `${percent(h.success_rate)} of ${h.attempts}`],
        [
          "LAST ATTEMPT",
          (h) => (h.last_attempt === null ? "-" : `${h.last_attempt.at} ${h.last_attempt.error ?? "ok"}`),
        ],
        ["FAILING SINCE", (h) => h.failing_since ?? "-"],
      ]);
    };
  }
  noExtraArguments(args, 2);
  const subscriptionId = requiredPositional(args[1], "subscriptionId");
  const since = required(flags.since, "since");
  const limit = positiveInteger(flags.limit, "limit", MAX_RECOVER);
  return async (ctx) => {
    await requireRole(ctx.vitrina.storage, actor, workspaceId, ["owner", "admin"], "recover webhook deliveries");
    const recovery = await ctx.vitrina.webhooks.recover(workspaceId, subscriptionId, {
      since,
      ...(limit !== undefined && { limit }),
    });
    printRecord(ctx.out, recovery as unknown as Record<string, unknown>);
    if (!ctx.out.json) {
      printNote(ctx.out, `Requeued ${recovery.requeued} failed deliveries; a running worker sends them.`);
      if (recovery.has_more) printNote(ctx.out, "More failed deliveries remain: run the same command again.");
    }
  };
}
