import { requireRole } from "@vitrina/core/capabilities";
import {
  noExtraArguments,
  positiveInteger,
  required,
  requiredPositional,
  unknownAction,
  type CliCommand,
} from "./command.js";
import type { CliContext } from "./context.js";
import { printList, printNote, printRecord } from "./output.js";

/** The webhook API's largest page (`vitrina.webhooks.deliveries` refuses more). */
const MAX_DELIVERIES_PAGE = 100;

/** Delivery history and manual resend, for an owner or admin at the console. */
export const deliveriesCommand: CliCommand = {
  name: "deliveries",
  summary: "list a subscription's webhook deliveries, resend one",
  usage: `vitrina deliveries list   --workspace <id> --subscription <id> --user <userId> [--limit 1-100]
                           [--starting-after <deliveryId> | --ending-before <deliveryId>]
                           [--status pending|succeeded|failed] [--event-type <type>] [--event-id <id>]
vitrina deliveries resend <deliveryId> --workspace <id> --subscription <id> --user <userId>
(find subscription ids with: vitrina webhooks list --workspace <id> --user <userId>)`,
  flags: {
    workspace: { type: "string" },
    subscription: { type: "string" },
    user: { type: "string" },
    limit: { type: "string" },
    "starting-after": { type: "string" },
    "ending-before": { type: "string" },
    status: { type: "string" },
    "event-type": { type: "string" },
    "event-id": { type: "string" },
  },
  prepare(args, flags) {
    const [action, deliveryId] = args;
    if (action !== "list" && action !== "resend") unknownAction(deliveriesCommand, action);
    noExtraArguments(args, action === "list" ? 1 : 2);
    const workspaceId = required(flags.workspace, "workspace");
    const subscriptionId = required(flags.subscription, "subscription");
    const actor = { userId: required(flags.user, "user") };
    const manage = (ctx: CliContext) =>
      requireRole(ctx.vitrina.storage, actor, workspaceId, ["owner", "admin"], "manage webhook deliveries");
    if (action === "list") {
      const limit = positiveInteger(flags.limit, "limit", MAX_DELIVERIES_PAGE);
      // Checked by the service, which names the flag's API spelling (status, event_type…) when one is bad.
      const text = (flag: string) => (typeof flags[flag] === "string" ? (flags[flag] as string) : undefined);
      const filters = {
        startingAfter: text("starting-after"),
        endingBefore: text("ending-before"),
        status: text("status"),
        eventType: text("event-type"),
        eventId: text("event-id"),
      };
      return async (ctx) => {
        await manage(ctx);
        const page = await ctx.vitrina.webhooks.deliveries(workspaceId, subscriptionId, {
          ...(limit !== undefined ? { limit } : {}),
          ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)),
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
        // The cursor continues in the direction read: newer with --ending-before, older otherwise.
        const flag = filters.endingBefore === undefined ? "--starting-after" : "--ending-before";
        if (!ctx.out.json && page.next_cursor !== null) printNote(ctx.out, `more: ${flag} ${page.next_cursor}`);
      };
    }
    const id = requiredPositional(deliveryId, "deliveryId");
    return async (ctx) => {
      await manage(ctx);
      const delivery = await ctx.vitrina.webhooks.resend(workspaceId, subscriptionId, id);
      printRecord(ctx.out, delivery as unknown as Record<string, unknown>);
      printNote(ctx.out, "Queued for delivery; a running worker (the server or `vitrina worker`) sends it.");
    };
  },
};
