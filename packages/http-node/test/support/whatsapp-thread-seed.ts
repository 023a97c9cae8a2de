import type { Storage } from "@vitrina/core";
import { fixtures } from "@vitrina/core/testing";

const HOUR = 60 * 60 * 1000;

/**
 * A WhatsApp contact with a thread, written straight into storage as the webhook would leave it:
 * their message, our reply (read), their reaction to it, and a later send of ours that failed with
 * 131047. `lastInboundHoursAgo` (at least 0.3) places their last message, so the 24-hour window is open or closed.
 * The console tests (HTTP and browser) read it back through the screens.
 */
export async function seedWhatsAppThread(
  storage: Storage,
  workspaceId: string,
  options: {
    now: Date;
    name: string | null;
    phone: string;
    inbound: string;
    status?: "open" | "pending" | "closed";
    lastInboundHoursAgo?: number;
  },
) {
  const at = (hoursAgo: number) => new Date(options.now.getTime() - hoursAgo * HOUR).toISOString();
  const wamid = (what: string) => `wamid.${what}.${crypto.randomUUID()}`;
  const lastInbound = options.lastInboundHoursAgo ?? 1;
  const { contact } = await storage.contacts.resolveForInbound(
    fixtures().contact(workspaceId, {
      name: options.name,
      phoneE164: options.phone,
      whatsappUserId: `CL.${options.phone.slice(1)}`,
      createdAt: at(lastInbound + 1),
      updatedAt: at(lastInbound + 1),
    }),
  );
  const conversationId = crypto.randomUUID();
  await storage.conversations.insert({
    id: conversationId,
    workspaceId,
    contactId: contact.id,
    channel: "whatsapp",
    status: options.status ?? "open",
    escalatedAt: null,
    createdAt: at(lastInbound + 1),
    updatedAt: at(lastInbound),
  });
  const ids = { inbound: wamid("in"), read: wamid("out"), reaction: wamid("in"), failed: wamid("out") };
  const message = (sender: string, content: string, hoursAgo: number, extra: Record<string, unknown>) =>
    storage.messages.insert({
      id: crypto.randomUUID(),
      workspaceId,
      conversationId,
      sender,
      content,
      createdAt: at(hoursAgo),
      ...extra,
    });
  await message("contact", options.inbound, lastInbound + 0.9, { providerMessageId: ids.inbound, kind: "text" });
  await message("agent", "Thanks for writing: an adviser will call you today.", lastInbound + 0.8, {
    providerMessageId: ids.read,
  });
  await message("contact", "[reaction] 👍", lastInbound, {
    providerMessageId: ids.reaction,
    kind: "reaction",
    replyTo: ids.read,
    details: { emoji: "👍", message_id: ids.read },
  });
  await message("human", "Our brochure, as promised.", lastInbound - 0.25, { providerMessageId: ids.failed });
  await storage.contacts.recordInbound(workspaceId, contact.id, at(lastInbound));
  await storage.deliveryReports.recordStatuses(workspaceId, [
    {
      providerMessageId: ids.read,
      sentAt: at(lastInbound + 0.8),
      deliveredAt: at(lastInbound + 0.75),
      readAt: at(lastInbound + 0.7),
      failedAt: null,
      failureCode: null,
      failureTitle: null,
    },
    {
      providerMessageId: ids.failed,
      sentAt: null,
      deliveredAt: null,
      readAt: null,
      failedAt: at(lastInbound - 0.3),
      failureCode: 131047,
      failureTitle: "Re-engagement message",
    },
  ]);
  return { contact, conversationId, providerMessageIds: ids };
}
