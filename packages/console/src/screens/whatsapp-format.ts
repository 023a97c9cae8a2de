import type { ContactRecord, DeliveryState } from "@vitrina/core";
import { describeWhatsAppFailure, serviceWindow } from "@vitrina/core/whatsapp";
import { formatTime, type ScreenContext } from "../console-page.js";
import { html, type SafeHtml } from "../html.js";

/** A person as the console names them: their name, else their phone, else their WhatsApp user id. */
export function contactLabel(contact: ContactRecord): string {
  return contact.name ?? contact.phoneE164 ?? contact.whatsappUserId ?? contact.id;
}

export const contactPath = (ctx: ScreenContext, contactId: string) =>
  `${ctx.root}/contacts/${encodeURIComponent(contactId)}`;

/**
 * The 24-hour customer-service window in words: free text may be sent only while it is open, so an
 * agent reading the thread needs to know when it closes (or closed), not just whether.
 */
export function serviceWindowLine(contact: ContactRecord, now: Date): SafeHtml {
  const window = serviceWindow(contact, now);
  if (window.closesAt === null)
    return html`<span class="muted"
      >Closed: the contact has never written on WhatsApp, so only a template can be sent.</span
    >`;
  return window.open
    ? html`<span class="status-ok">Open</span> until ${formatTime(window.closesAt)} (24 hours after the contact's last
        message)`
    : html`<span class="status-bad">Closed</span> since ${formatTime(window.closesAt)}: only a template can be sent
        until the contact writes again.`;
}

/**
 * A sent message's delivery as the provider reported it: the furthest status with its time, and a
 * failure in plain words (the code alone tells an agent nothing).
 */
export function deliveryLine(delivery: DeliveryState | undefined, providerMessageId: string | undefined): SafeHtml {
  if (delivery === undefined)
    return providerMessageId === undefined
      ? html`<span class="muted">not sent through a channel</span>`
      : html`<span class="muted">handed to WhatsApp; no delivery report yet</span>`;
  const at = {
    sent: delivery.sentAt,
    delivered: delivery.deliveredAt,
    read: delivery.readAt,
    failed: delivery.failedAt,
  }[delivery.status];
  if (delivery.status === "failed")
    return html`<span class="status-bad">failed</span> ${formatTime(at)}:
      ${describeWhatsAppFailure(delivery.failureCode, delivery.failureTitle)}`;
  return html`<span class="status-ok">${delivery.status}</span> ${formatTime(at)}`;
}

/** A ledger entry's evidence, one readable line per field (nested values as compact JSON, long ones cut). */
export function evidenceSummary(evidence: Record<string, unknown>): SafeHtml {
  const entries = Object.entries(evidence);
  if (entries.length === 0) return html`<span class="muted">none</span>`;
  const text = (value: unknown) => {
    const shown = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
    return shown.length > 300 ? `${shown.slice(0, 300)}…` : shown;
  };
  return html`${entries.map(([key, value], i) => html`${i > 0 && html`<br />`}${key.replace(/_/g, " ")}: ${text(value)}`)}`;
}
