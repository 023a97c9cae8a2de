import { ConflictError, NotFoundError, type FieldReason } from "../errors.js";
import { outboundStateOf } from "../channels/whatsapp/outbound-state.js";
import type { LeadPayload } from "../leads/lead-schema.js";
import { handOver, sendFirstMessage, type SendFirstMessageDeps } from "../leads/send-first-message.js";
import type { LeadListFilter } from "../ports/lead-operations-storage.js";
import type { ContactRecord, OutboundStatus } from "../ports/records.js";
import type { Logger } from "../ports/logger.js";
import { requireManager, type AdminCaller } from "./admin-caller.js";
import { toPage, wholeList, type ListPage } from "../http/list-page.js";
import { leadRefusalView, workspaceLeadView, type LeadRefusalView, type WorkspaceLeadView } from "./lead-views.js";

/** What a retry answers: the first message's state now, and whether this call handed it to the provider. */
export interface RetryOutcome {
  object: "first_message_retry";
  lead_id: string;
  retried: true;
  outbound: { status: OutboundStatus; reason: string | null };
}

/** Why a failed first message may not be sent again, as the field at fault and a stable code. */
function refusalToResend(contact: ContactRecord | null, phoneE164: string): FieldReason & { code: string } {
  if (contact === null) return { code: "contact_deleted", field: "contact", reason: "the contact no longer exists" };
  if (contact.whatsappOptedOutAt !== null)
    return {
      code: "opted_out",
      field: "contact.whatsapp_opted_out_at",
      reason: `the contact opted out of WhatsApp at ${contact.whatsappOptedOutAt}; an opt-out always wins`,
    };
  if (contact.phoneE164 !== phoneE164)
    return { code: "phone_changed", field: "contact.phone_e164", reason: "the contact's phone changed since the lead" };
  if (contact.whatsappConsent?.granted !== true)
    return {
      code: "no_consent",
      field: "contact.whatsapp_consent",
      reason: "the contact has no WhatsApp consent on record any more",
    };
  return {
    code: "not_failed_or_welcomed",
    field: "outbound.status",
    reason:
      "the first message is no longer failed (retried meanwhile), or another first message already reached the contact",
  };
}

/**
 * Every lead of a workspace, a connector's refused leads, and sending a failed first message
 * again, for the admin API and the console. The retry goes through the same locked claim as lead
 * intake (the contact's row lock, opt-out and consent read from the locked row), so an opt-out
 * that committed before it always wins, and two retries at once send at most one message.
 */
export function createLeadAdmin(deps: SendFirstMessageDeps & { refusalsKept: number }) {
  const { storage } = deps;

  async function loadConnector(caller: AdminCaller, id: string) {
    const connector = await storage.connectors.get(id);
    if (connector === null || connector.workspaceId !== caller.workspaceId)
      throw new NotFoundError(`connector ${id} does not exist`);
    return connector;
  }

  return {
    /** How many refusals each connector keeps. */
    refusalsKept: deps.refusalsKept,

    /** The workspace's leads, newest first, filtered; each with its contact, opportunity and conversation. */
    async list(
      caller: AdminCaller,
      filter: LeadListFilter,
      page: { limit: number; startingAfter?: string },
    ): Promise<ListPage<WorkspaceLeadView>> {
      const rows = await storage.workspaceLeads.listPage(caller.workspaceId, filter, {
        ...page,
        limit: page.limit + 1,
      });
      return toPage(rows, page.limit, workspaceLeadView, (l) => l.id);
    },

    /** A connector's refused leads, newest first (at most the ring's size). */
    async refusals(caller: AdminCaller, connectorId: string): Promise<ListPage<LeadRefusalView>> {
      await loadConnector(caller, connectorId);
      const rows = await storage.leadRefusals.listByConnector(connectorId.toLowerCase(), deps.refusalsKept);
      // The ring is the whole list: nothing older is kept to page to.
      return wholeList(rows.map(leadRefusalView));
    },

    /**
     * Sends a lead's `failed` first message again (owners and admins). Refused with `conflict`,
     * naming the field at fault, when there is none, it is not failed, the payload was redacted,
     * or the contact may not be messaged now (opted out, consent withdrawn, phone changed, or
     * already welcomed by another first message). `logger`: the request's.
     */
    async retryFirstMessage(caller: AdminCaller, leadId: string, logger: Logger): Promise<RetryOutcome> {
      requireManager(caller, "retry first messages");
      const lead = await storage.leads.get(leadId);
      if (lead === null || lead.workspaceId !== caller.workspaceId)
        throw new NotFoundError(`lead ${leadId} does not exist`);
      const message = await storage.workspaceLeads.firstMessageOf(caller.workspaceId, lead.id);
      const refuse = (field: string, reason: string, code: string): never => {
        logger.info({ leadEventId: lead.id, refusedBecause: code }, "first message retry refused");
        throw new ConflictError(`the first message of lead ${lead.id} can't be sent again: ${reason}`, {
          reasons: [{ field, reason }],
        });
      };
      if (message === null) return refuse("outbound", "the lead has no first message (none was planned)", "none");
      if (message.status !== "failed")
        return refuse(
          "outbound.status",
          `only a failed first message can be retried; it is ${message.status}`,
          "not_failed",
        );
      if (lead.payloadRedactedAt !== undefined)
        return refuse(
          "payload",
          "the lead's payload was redacted by retention, so the message can't be rebuilt",
          "redacted",
        );
      // Validated when the lead was registered, and stored as received.
      const payload = lead.payload as unknown as LeadPayload;
      const phone = payload.contact.phone_e164;
      const claim = await storage.firstMessageRetries.claimFailed(
        message,
        phone,
        handOver(deps.clock.now().toISOString()),
      );
      if (claim.claimed === null) {
        const why = refusalToResend(claim.contact, phone);
        return refuse(why.field, why.reason, why.code);
      }
      logger.info(
        { leadEventId: lead.id, outboundId: message.id, workspaceId: caller.workspaceId },
        "first message retried",
      );
      const outbound = await sendFirstMessage({ ...deps, logger }, claim.claimed, payload, claim);
      return { object: "first_message_retry", lead_id: lead.id, retried: true, outbound: outboundStateOf(outbound) };
    },
  };
}
export type LeadAdmin = ReturnType<typeof createLeadAdmin>;
