import { requireRole } from "@vitrina/core/capabilities";
import { positiveInteger, required, requiredPositional, unknownAction, type CliCommand } from "./command.js";
import { printList, printRecord } from "./output.js";

/** Delivery history and manual resend, for an owner or admin at the console. */
export const deliveriesCommand: CliCommand = {
  name: "deliveries",
  summary: "list a subscription's webhook deliveries, resend one",
  usage: `vitrina deliveries list   --workspace <id> --subscription <id> --user <userId> [--limit N] [--starting-after <deliveryId>]
vitrina deliveries resend <deliveryId> --workspace <id> --subscription <id> --user <userId>
(find subscription ids with: vitrina webhooks list --workspace <id> --user <userId>)`,
  flags: {
    workspace: { type: "string" },
    subscription: { type: "string" },
    user: { type: "string" },
    limit: { type: "string" },
    "starting-after": { type: "string" },
  },
  async run(ctx, [action, deliveryId], flags) {
    if (action !== "list" && action !== "resend") unknownAction(deliveriesCommand, action);
    const workspaceId = required(flags.workspace, "workspace");
    const subscriptionId = required(flags.subscription, "subscription");
    // Validated before any query: a bad --limit is a usage error, never a database error.
    const limit = action === "list" ? positiveInteger(flags.limit, "limit") : undefined;
    await requireRole(
      ctx.vitrina.storage,
      { userId: required(flags.user, "user") },
      workspaceId,
      ["owner", "admin"],
      "manage webhook deliveries",
    );
    if (action === "list") {
      const page = await ctx.vitrina.webhooks.deliveries(workspaceId, subscriptionId, {
        ...(limit !== undefined ? { limit } : {}),
        ...(flags["starting-after"] ? { startingAfter: String(flags["starting-after"]) } : {}),
      });
      printList(
        ctx.out,
        page.data,
        [
          ["ID", (d) => d.id],
          ["EVENT", (d) => d.event_type],
          ["STATUS", (d) => d.status],
          ["ATTEMPTS", (d) => d.attempt_count],
          ["NEXT ATTEMPT", (d) => d.next_attempt_at],
          ["LAST ERROR", (d) => d.last_error],
        ],
        page,
      );
      if (!ctx.out.json && page.has_more) console.error(`more: --starting-after ${page.data.at(-1)!.id}`);
      return;
    }
    const delivery = await ctx.vitrina.webhooks.resend(
      workspaceId,
      subscriptionId,
      requiredPositional(deliveryId, "deliveryId"),
    );
    printRecord(ctx.out, delivery as unknown as Record<string, unknown>);
    console.error("Queued for delivery; a running worker (the server or `vitrina worker`) sends it.");
  },
};
