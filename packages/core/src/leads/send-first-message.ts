import { whatsappThreadFor } from "../conversations/open-conversation.js";
import { VitrinaError } from "../errors.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { Logger } from "../ports/logger.js";
import type { MessagingTransport, OutgoingMessage } from "../ports/messaging.js";
import type { ContactRecord, OutboundMessageRecord } from "../ports/records.js";
import type { ClaimForSendingResult, FirstMessageOutcome, HandOver, Storage } from "../ports/storage.js";
import { buildFirstMessage, type FirstMessageOptions } from "./first-message.js";
import type { LeadPayload } from "./lead-schema.js";

export interface SendFirstMessageDeps {
  storage: Storage;
  messaging: MessagingTransport;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  firstMessage: FirstMessageOptions;
}

/** How a template message reads in the conversation history. */
export function describeOutgoing(message: OutgoingMessage): string {
  if (message.text !== undefined) return message.text;
  return `[template ${message.template?.name ?? "?"}] ${message.template?.bodyParameters.join(" | ") ?? ""}`.trim();
}

/** The reason of a queued first message not sent because a later lead recorded `whatsapp_consent.granted: false`. */
export const CONSENT_WITHDRAWN_REASON =
  "the contact withdrew WhatsApp consent (a later lead recorded whatsapp_consent.granted false) before the message was sent";
/** The reason of a queued first message not sent because the contact no longer has consent on record. */
export const NO_CONSENT_REASON =
  "the contact had no WhatsApp consent on record any more when the message was to be sent";

/** Why a message decided at registration must not go out after all (a stable code for the log, and the reason). */
interface Stop {
  code: "contact_deleted" | "opted_out" | "phone_changed" | "consent_withdrawn" | "no_consent";
  reason: string;
}

/**
 * Why a message decided at registration must not go out after all, or null: the same conditions
 * `outbound.claimForSending` checks under the contact's lock, read off the contact it returned.
 */
function reasonToStop(contact: ContactRecord | null, payload: LeadPayload): Stop | null {
  if (contact === null)
    return { code: "contact_deleted", reason: "the contact was deleted before the message was sent" };
  if (contact.whatsappOptedOutAt !== null)
    return {
      code: "opted_out",
      reason: `contact opted out of WhatsApp at ${contact.whatsappOptedOutAt}, before the message was sent`,
    };
  // Consent was given for the lead's phone; never send it to a number the contact has since moved to.
  if (contact.phoneE164 !== payload.contact.phone_e164)
    return { code: "phone_changed", reason: "the contact's phone changed before the message was sent" };
  // The contact's consent is its latest evidence: a later lead saying no withdraws it.
  if (contact.whatsappConsent === null) return { code: "no_consent", reason: NO_CONSENT_REASON };
  if (!contact.whatsappConsent.granted) return { code: "consent_withdrawn", reason: CONSENT_WITHDRAWN_REASON };
  return null;
}

/**
 * The correlation a first message carries to the provider (echoed on its statuses): a status can
 * then settle a message whose send answer was lost (see `channels/whatsapp/settle-first-message.ts`).
 */
export const firstMessageCorrelation = (leadEventId: string) => `vitrina:first-message:${leadEventId}`;

/** The lead event id in a first message's correlation, or null for any other value. */
export function leadEventOfCorrelation(correlation: string | null): string | null {
  const prefix = "vitrina:first-message:";
  return correlation?.startsWith(prefix) ? correlation.slice(prefix.length) : null;
}

/** The reason of a first message the provider accepted, until its delivery reports arrive by webhook. */
export const ACCEPTED_BY_PROVIDER = "accepted by the messaging provider; its delivery report comes by webhook";

/** The reason a first message carries while the provider call is in flight. */
export const HANDED_TO_PROVIDER = "handed to the messaging provider";

/** The change that hands a first message to the provider at `at` (an ISO time). */
export function handOver(at: string): HandOver {
  return { status: "queued", reason: HANDED_TO_PROVIDER, handedToProviderAt: at, updatedAt: at };
}

/**
 * Re-checks the contact under its row lock and claims the message for sending (status stays
 * `queued`, `handedToProviderAt` starts the send lease) in one atomic storage step, or blocks it.
 * The claim is a compare-and-set on "never handed over": when the stuck-message sweep and the
 * request that registered the lead both try, only one sends. An opt-out that committed before this
 * point stops the send, as does a later lead that withdrew consent (`granted: false`, now the
 * contact's latest evidence); one that commits after it (while the provider call is in flight) does not:
 * that window is the provider call's length, since no transaction may stay open across it.
 * `madeAtRegistration` is that claim when the registration made it: a new person's lead is written
 * with its message already handed over (see `registerLead`), and the check that follows is the same.
 * Returns `contact: null` when there is nothing to send (blocked, or claimed elsewhere).
 */
async function claimForSending(
  deps: SendFirstMessageDeps,
  message: OutboundMessageRecord,
  payload: LeadPayload,
  madeAtRegistration: ClaimForSendingResult | undefined,
) {
  const at = deps.clock.now().toISOString();
  const { contact, claimed } =
    madeAtRegistration ??
    (await deps.storage.outbound.claimForSending(message, payload.contact.phone_e164, handOver(at)));
  if (claimed !== null) return { contact, outbound: claimed };
  const stop = reasonToStop(contact, payload);
  // The contact passed the check, so another process claimed or settled the message first.
  const blocked =
    stop === null
      ? null
      : await deps.storage.outbound.claimUnsent(message.id, {
          status: "blocked",
          reason: stop.reason,
          handedToProviderAt: null,
          updatedAt: at,
        });
  // Logged only by the process that blocked it; ids and the code, never the person's phone.
  if (blocked !== null && stop !== null)
    deps.logger.warn(
      {
        outboundId: message.id,
        leadEventId: message.leadEventId,
        workspaceId: message.workspaceId,
        contactId: message.contactId,
        blockedBecause: stop.code,
        // The lead whose consent evidence withdrew it.
        ...(stop.code === "consent_withdrawn" && { consentLeadEventId: contact?.whatsappConsent?.leadEventId }),
      },
      "queued first message blocked before it was sent",
    );
  return {
    contact: null,
    outbound: blocked ?? (await deps.storage.outbound.findByLeadEvent(message.leadEventId)) ?? message,
  };
}

/**
 * Sends a registered lead's first WhatsApp message (after the lead committed, so a slow provider
 * never holds a transaction open) and records the outcome: `sent`, `queued` (the provider holds
 * it), `failed` with the provider's reason, or `blocked` when, in between, the contact opted out,
 * changed phone or withdrew consent (logged at warn with the ids and a `blockedBecause` code).
 * A sent or queued message goes into the contact's WhatsApp conversation (opened, with
 * `conversation.started`, only when none is active): outcome, conversation and message commit together.
 * When the process stops during the provider call the message stays `queued` with
 * `handedToProviderAt` set; `reconcileFirstMessages` settles it once the send lease passed.
 */
export async function sendFirstMessage(
  deps: SendFirstMessageDeps,
  message: OutboundMessageRecord,
  payload: LeadPayload,
  claimedAtRegistration?: ClaimForSendingResult,
): Promise<OutboundMessageRecord> {
  const claimed = await claimForSending(deps, message, payload, claimedAtRegistration);
  if (claimed.contact === null) return claimed.outbound;
  const outgoing = {
    ...buildFirstMessage(deps.firstMessage, claimed.contact, payload),
    correlationId: firstMessageCorrelation(message.leadEventId),
  };
  let outcome: FirstMessageOutcome;
  try {
    const result = await deps.messaging.send(outgoing);
    // One clock reading for both, as for a failure below: the record was updated when the answer came.
    const answeredAt = deps.clock.now().toISOString();
    outcome = {
      id: message.id,
      status: result.status,
      reason: result.status === "queued" ? ACCEPTED_BY_PROVIDER : null,
      providerMessageId: result.providerMessageId,
      providerAnsweredAt: answeredAt,
      updatedAt: answeredAt,
    };
  } catch (error) {
    // Provider errors are VitrinaErrors with a message meant for users; anything else is a bug
    // whose details belong in the log, not in the response.
    const reason = error instanceof VitrinaError ? error.message : "messaging transport failed unexpectedly";
    deps.logger.warn({ leadEventId: message.leadEventId, error: String(error) }, "first message failed");
    const at = deps.clock.now().toISOString();
    outcome = {
      id: message.id,
      status: "failed",
      reason,
      providerMessageId: null,
      providerAnsweredAt: at,
      updatedAt: at,
    };
  }
  // One atomic storage step (one statement on PostgreSQL): the outcome, and for a message that
  // went out, its place in the contact's WhatsApp thread (opened with `conversation.started` only
  // when none is active).
  const thread =
    outcome.status === "failed"
      ? undefined
      : whatsappThreadFor(
          deps,
          { workspaceId: message.workspaceId, contactId: message.contactId, startedBy: "lead_intake" },
          {
            sender: "agent",
            content: describeOutgoing(outgoing),
            // The provider's id joins the thread's copy to its delivery reports.
            ...(outcome.providerMessageId !== null && { providerMessageId: outcome.providerMessageId }),
          },
        );
  await deps.storage.outbound.recordOutcome(outcome, thread);
  return { ...claimed.outbound, ...outcome };
}
