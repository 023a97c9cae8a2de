import { whatsappThreadFor } from "../../conversations/open-conversation.js";
import { buildFirstMessage, type FirstMessageOptions } from "../../leads/first-message.js";
import type { LeadPayload } from "../../leads/lead-schema.js";
import { describeOutgoing, leadEventOfCorrelation } from "../../leads/send-first-message.js";
import type { Logger } from "../../ports/logger.js";
import type { OpenedChannel } from "./channel-cache.js";
import type { InboundDeps } from "./record-inbound.js";
import type { StatusItem } from "./webhook-payload.js";

/** The reason of a first message whose send answer was lost and which a delivery status then settled. */
export const SETTLED_BY_STATUS_REASON =
  "the send's answer was lost, and the provider's delivery status later showed it took the message";

/**
 * Settles a first message whose send answer never got recorded (the process stopped during the
 * provider call: it stays in flight, or the sweep marked it failed "outcome unknown"), from a
 * status that echoes its correlation (`biz_opaque_callback_data`): the provider took it, so it
 * gets its provider id (its statuses then join it) and its place in the contact's WhatsApp thread,
 * opened with `conversation.started` when the contact has none, as a recorded send would have.
 * A message whose answer was recorded, or that never reached the provider, is left alone.
 */
export async function settleFirstMessageFromStatus(
  deps: InboundDeps & { logger: Logger; firstMessage: FirstMessageOptions },
  channel: OpenedChannel,
  item: StatusItem,
): Promise<boolean> {
  const leadEventId = leadEventOfCorrelation(item.correlation);
  if (leadEventId === null) return false;
  const workspaceId = channel.record.workspaceId;
  const outbound = await deps.storage.outbound.findByLeadEvent(leadEventId);
  if (outbound === null || outbound.workspaceId !== workspaceId) return false;
  const lost =
    outbound.providerMessageId === null &&
    outbound.handedToProviderAt !== null &&
    (outbound.status === "queued" || outbound.status === "failed");
  if (!lost) return false;
  const [lead, contact] = await Promise.all([
    deps.storage.leads.get(leadEventId),
    deps.storage.contacts.get(workspaceId, outbound.contactId),
  ]);
  if (contact === null) return false;
  const content =
    lead === null || lead.payloadRedactedAt !== undefined
      ? `[template ${deps.firstMessage.template}]`
      : describeOutgoing(buildFirstMessage(deps.firstMessage, contact, lead.payload as LeadPayload));
  const providerMessageId = item.status.providerMessageId;
  const at = deps.clock.now().toISOString();
  const { recorded, opened } = await deps.storage.outbound.recordOutcome(
    {
      id: outbound.id,
      status: "queued",
      reason: SETTLED_BY_STATUS_REASON,
      providerMessageId,
      providerAnsweredAt: at,
      updatedAt: at,
    },
    whatsappThreadFor(
      deps,
      { workspaceId, contactId: outbound.contactId, startedBy: "lead_intake" },
      { sender: "agent", content, providerMessageId },
    ),
  );
  if (recorded)
    deps.logger.info(
      { workspaceId, outboundId: outbound.id, leadEventId, providerMessageId, conversationOpened: opened },
      "first message whose send answer was lost settled by its delivery status",
    );
  return recorded;
}
