import { requireRole } from "@vitrina/core/capabilities";
import { EVENT_TYPES, isEventType } from "@vitrina/core/webhooks";
import { noExtraArguments, required, requiredPositional, UsageError, type CliCommand } from "./command.js";
import type { CliContext } from "./context.js";
import { printNote, printRecord } from "./output.js";

/** How many dispatcher passes `--deliver` runs before it reports the delivery as still pending. */
const DELIVER_PASSES = 3;

/**
 * `vitrina trigger <event-type>`: a realistic sample of one of the event types (valid against
 * its published JSON Schema), delivered through the outbox to one subscription, signed and retried
 * like real traffic. For trying a receiver before real leads, quotes or orders exist.
 */
export const triggerCommand: CliCommand = {
  name: "trigger",
  summary: "send a sample of an event type to one webhook subscription",
  usage: `vitrina trigger <event-type> --workspace <id> --subscription <id> --user <userId> [--deliver]
event types: ${EVENT_TYPES.join(", ")}
(--deliver sends it from this process now; otherwise a running worker, the server's or \`vitrina worker\`, does)`,
  flags: {
    workspace: { type: "string" },
    subscription: { type: "string" },
    user: { type: "string" },
    deliver: { type: "boolean" },
  },
  prepare(args, flags) {
    const type = requiredPositional(args[0], "event-type");
    noExtraArguments(args, 1);
    if (!isEventType(type))
      throw new UsageError(`unknown event type "${type}"; one of ${EVENT_TYPES.join(", ")}`, "event-type");
    const workspaceId = required(flags.workspace, "workspace");
    const subscriptionId = required(flags.subscription, "subscription");
    const actor = { userId: required(flags.user, "user") };
    return async (ctx) => {
      await requireRole(ctx.vitrina.storage, actor, workspaceId, ["owner", "admin"], "send sample events");
      const queued = await ctx.vitrina.sendTestDelivery(workspaceId, subscriptionId, type);
      if (flags.deliver !== true) {
        printRecord(ctx.out, { ...queued, event_type: type, status: "pending" });
        printNote(ctx.out, "Queued for delivery; a running worker (the server or `vitrina worker`) sends it.");
        return;
      }
      printRecord(ctx.out, {
        ...queued,
        event_type: type,
        ...(await deliverNow(ctx, workspaceId, subscriptionId, queued.delivery_id)),
      });
    };
  },
};

/** Runs the outbox here until the delivery leaves `pending`, and reports how its attempt went. */
async function deliverNow(ctx: CliContext, workspaceId: string, subscriptionId: string, deliveryId: string) {
  for (let pass = 0; pass < DELIVER_PASSES; pass++) {
    await ctx.vitrina.outbox.dispatcher.runOnce("vitrina-trigger");
    const page = await ctx.vitrina.webhooks.deliveries(workspaceId, subscriptionId, { limit: 20 });
    const delivery = page.data.find((d) => d.id === deliveryId);
    if (delivery !== undefined && (delivery.status !== "pending" || delivery.attempt_count > 0))
      return { status: delivery.status, attempts: delivery.attempt_count, last_error: delivery.last_error };
  }
  return { status: "pending", attempts: 0, last_error: null };
}
