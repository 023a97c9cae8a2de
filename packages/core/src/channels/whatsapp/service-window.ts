import { VitrinaError } from "../../errors.js";
import type { ContactRecord } from "../../ports/records.js";

/** WhatsApp's customer-service window: free text is allowed for 24 hours after the person's last message. */
export const SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Whether the window is open at `now`, and when it closes (or closed); `closesAt` is null when the person never wrote. */
export function serviceWindow(contact: ContactRecord, now: Date): { open: boolean; closesAt: string | null } {
  if (contact.whatsappLastInboundAt === undefined) return { open: false, closesAt: null };
  const closes = Date.parse(contact.whatsappLastInboundAt) + SERVICE_WINDOW_MS;
  return { open: now.getTime() < closes, closesAt: new Date(closes).toISOString() };
}

/**
 * Refuses free text outside the window, naming it and when it closed: the provider would refuse it
 * (131047), and a business-initiated message must be an approved template.
 */
export function assertServiceWindowOpen(contact: ContactRecord, now: Date): void {
  const window = serviceWindow(contact, now);
  if (window.open) return;
  const when =
    window.closesAt === null
      ? "the contact has never written to this business on WhatsApp"
      : `it closed at ${window.closesAt}, 24 hours after the contact's last message`;
  throw new VitrinaError(
    "window_closed",
    `WhatsApp's 24-hour customer-service window is closed (${when}); free text can only be sent within 24 hours of the contact's last message, so nothing was sent. Send an approved template instead, or wait for the contact to write.`,
    { reasons: [{ field: "conversation_id", reason: "the contact's 24-hour WhatsApp service window is closed" }] },
  );
}
