import type { LeadPayload } from "./lead-schema.js";
import type { ContactRecord, OutboundStatus } from "../ports/records.js";
import type { OutgoingMessage } from "../ports/messaging.js";

export interface FirstMessageDecision {
  eligible: boolean;
  /** For an ineligible lead: `blocked` with the reason. */
  status: OutboundStatus;
  reason: string | null;
}

/**
 * Rule 2 of the spec: a first message goes out only when the lead carries
 * `whatsapp_consent.granted = true` with its timestamp, and the contact never opted out.
 * A prior opt-out wins over consent in the payload.
 */
export function decideFirstMessage(payload: LeadPayload, contact: ContactRecord): FirstMessageDecision {
  const consent = payload.whatsapp_consent;
  if (contact.whatsappOptedOutAt !== null) {
    return {
      eligible: false,
      status: "blocked",
      reason: `contact opted out of WhatsApp at ${contact.whatsappOptedOutAt}`,
    };
  }
  if (!consent) return { eligible: false, status: "blocked", reason: "no whatsapp_consent in the lead" };
  if (!consent.granted) return { eligible: false, status: "blocked", reason: "whatsapp_consent.granted is false" };
  if (!consent.timestamp) {
    return {
      eligible: false,
      status: "blocked",
      reason: "whatsapp_consent has no timestamp; consent needs the time it was given",
    };
  }
  return { eligible: true, status: "queued", reason: "waiting for the messaging provider" };
}

/** One welcome per person: a day, unless `FirstMessageOptions.oncePerContactWithinMs` says otherwise. */
export const DEFAULT_FIRST_MESSAGE_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * What the first message says. The default is the approved template `vitrina_welcome` in `es` with one
 * body parameter, `{{1}}`: the contact's name, or `nameFallback` when the lead has none (the Cloud API
 * refuses an empty parameter, so a nameless lead would never be welcomed).
 */
export interface FirstMessageOptions {
  template: string;
  language: string;
  /** The template's body parameters, in order. Default: `[name]`, the name being `nameFallback` when the lead has none. */
  bodyParameters?(contact: ContactRecord, payload: LeadPayload): string[];
  /** What `{{1}}` says for a lead without a name (with the default `bodyParameters`). Default `"cliente"`. */
  nameFallback?: string;
  /**
   * A contact gets at most one first message in this many milliseconds, however many leads arrive
   * for them: later leads in the window are registered with `outbound.status = "blocked"` and a
   * reason naming the earlier message. Default 24 h; 0 turns the rule off.
   */
  oncePerContactWithinMs?: number;
}

/** `{{1}}` of the default template for a lead without a name: "Hola cliente, …" reads naturally in Spanish. */
export const DEFAULT_NAME_FALLBACK = "cliente";

export const defaultFirstMessage: FirstMessageOptions = {
  template: "vitrina_welcome",
  language: "es",
  oncePerContactWithinMs: DEFAULT_FIRST_MESSAGE_WINDOW_MS,
  nameFallback: DEFAULT_NAME_FALLBACK,
};

/** The contact's name for `{{1}}`; a missing or blank name is the fallback, never an empty parameter. */
function nameParameter(contact: ContactRecord, options: FirstMessageOptions): string {
  const name = contact.name?.trim() ?? "";
  return name === "" ? (options.nameFallback ?? DEFAULT_NAME_FALLBACK) : name;
}

export function buildFirstMessage(
  options: FirstMessageOptions,
  contact: ContactRecord,
  payload: LeadPayload,
): OutgoingMessage {
  return {
    channel: "whatsapp",
    workspaceId: contact.workspaceId,
    // The contact is the phone's owner (resolved by phone, and re-checked before sending).
    to: contact.phoneE164 ?? payload.contact.phone_e164,
    template: {
      name: options.template,
      language: options.language,
      bodyParameters: options.bodyParameters?.(contact, payload) ?? [nameParameter(contact, options)],
    },
  };
}
