import { VitrinaError } from "../errors.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { Logger } from "../ports/logger.js";
import type { MessagingTransport } from "../ports/messaging.js";
import type {
  ConsentEvidence,
  LeadEventRecord,
  OutboundMessageRecord,
  OutboundStatus,
  RejectedQualification,
} from "../ports/records.js";
import type { Storage } from "../ports/storage.js";
import { parseOrThrow } from "../validation.js";
import { openConversation } from "../conversations/open-conversation.js";
import { buildFirstMessage, decideFirstMessage, type FirstMessageOptions } from "./first-message.js";
import { leadPayloadSchema, type LeadPayload } from "./lead-schema.js";
import { evaluateQualification, type VerticalDefinitions } from "./qualification.js";
import { resolveContact } from "./resolve-contact.js";
import type { LeadSignatureHeaders, LeadSignatureVerifier } from "./verify-lead-signature.js";

/** The lead intake response: the spec's table plus `qualification`. */
export interface LeadIntakeResponse {
  accepted: boolean;
  duplicate: boolean;
  lead_event_id: string;
  contact_id: string;
  opportunity_id: string;
  eligible_for_whatsapp: boolean;
  outbound: { status: OutboundStatus; reason: string | null };
  qualification: {
    recorded: Array<{ field: string; value: number }>;
    rejected: RejectedQualification[];
  };
}

export interface LeadIntakeDeps {
  storage: Storage;
  messaging: MessagingTransport;
  verifier: LeadSignatureVerifier;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  firstMessage: FirstMessageOptions;
  verticals: VerticalDefinitions;
}

/** How a template message reads in the conversation history. */
function describeOutgoing(message: { text?: string; template?: { name: string; bodyParameters: string[] } }): string {
  if (message.text !== undefined) return message.text;
  return `[template ${message.template?.name ?? "?"}] ${message.template?.bodyParameters.join(" | ") ?? ""}`.trim();
}

/** Thrown inside the transaction to roll it back when the lead turns out to be a resend. */
class DuplicateLead extends Error {}

function decodeJson(body: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch (cause) {
    throw new VitrinaError("malformed_json", "request body is not valid UTF-8 JSON", { cause });
  }
}

/**
 * Signed lead intake: verify, validate, then register the lead, its contact, opportunity, consent
 * evidence and outbound record in one transaction, idempotent on (connector, source_lead_id).
 * The first WhatsApp message is sent after the commit, so a slow provider never holds a
 * transaction open, and its outcome updates the outbound record.
 */
export function createLeadIntake(deps: LeadIntakeDeps) {
  const { storage, clock, ids } = deps;

  async function previousState(connectorId: string, sourceLeadId: string): Promise<LeadIntakeResponse> {
    const lead = await storage.leads.findBySourceId(connectorId, sourceLeadId);
    if (lead === null) throw new VitrinaError("internal", "duplicate lead vanished while reading it back");
    const [opportunity, outbound] = await Promise.all([
      storage.opportunities.get(lead.opportunityId),
      storage.outbound.findByLeadEvent(lead.id),
    ]);
    return respond(lead, outbound, opportunity?.qualification ?? [], true);
  }

  function respond(
    lead: LeadEventRecord,
    outbound: Pick<OutboundMessageRecord, "status" | "reason"> | null,
    recorded: Array<{ field: string; value: number }>,
    duplicate: boolean,
  ): LeadIntakeResponse {
    return {
      accepted: true,
      duplicate,
      lead_event_id: lead.id,
      contact_id: lead.contactId,
      opportunity_id: lead.opportunityId,
      eligible_for_whatsapp: lead.eligibleForWhatsapp,
      outbound: { status: outbound?.status ?? "blocked", reason: outbound?.reason ?? null },
      qualification: {
        recorded: recorded.map(({ field, value }) => ({ field, value })),
        rejected: lead.qualificationRejected,
      },
    };
  }

  async function sendFirstMessage(message: OutboundMessageRecord, payload: LeadPayload): Promise<OutboundMessageRecord> {
    const contact = await storage.contacts.get(message.workspaceId, message.contactId);
    let next: OutboundMessageRecord;
    const outgoing = buildFirstMessage(deps.firstMessage, contact!, payload);
    try {
      const result = await deps.messaging.send(outgoing);
      next = {
        ...message,
        status: result.status,
        reason: result.status === "queued" ? "held by the messaging provider" : null,
        providerMessageId: result.providerMessageId,
      };
    } catch (error) {
      const reason = error instanceof VitrinaError ? error.message : "messaging transport failed unexpectedly";
      deps.logger.warn("first message failed", { leadEventId: message.leadEventId, error: String(error) });
      next = { ...message, status: "failed", reason };
    }
    next.updatedAt = clock.now().toISOString();
    if (next.status === "failed") {
      await storage.outbound.update(next);
      return next;
    }
    // A sent or queued first message opens the WhatsApp conversation: outcome, conversation,
    // message and `conversation.started` commit together.
    await storage.transaction(async (tx) => {
      await tx.outbound.update(next);
      await openConversation(tx, deps, {
        workspaceId: message.workspaceId,
        contactId: message.contactId,
        channel: "whatsapp",
        startedBy: "lead_intake",
        firstMessage: { sender: "agent", content: describeOutgoing(outgoing) },
      });
    });
    return next;
  }

  return {
    /** Verifies and registers one signed lead. Throws VitrinaError for every rejection. */
    async receive(headers: LeadSignatureHeaders, body: Uint8Array): Promise<LeadIntakeResponse> {
      const connector = await deps.verifier.verify(headers, body);
      const payload = parseOrThrow(leadPayloadSchema, decodeJson(body), "lead payload");
      const workspace = await storage.workspaces.get(connector.workspaceId);
      if (workspace === null) throw new VitrinaError("internal", `workspace of connector ${connector.id} is missing`);
      const qualification = evaluateQualification(payload.qualification, workspace.vertical, workspace.currency, deps.verticals);
      const now = clock.now().toISOString();
      const leadId = ids();
      const consent: ConsentEvidence | null = payload.whatsapp_consent
        ? {
            granted: payload.whatsapp_consent.granted,
            timestamp: payload.whatsapp_consent.timestamp ?? "",
            source: payload.whatsapp_consent.source ?? null,
            purpose: payload.whatsapp_consent.purpose ?? null,
            connectorId: connector.id,
            leadEventId: leadId,
            recordedAt: now,
          }
        : null;

      let registered: { lead: LeadEventRecord; outbound: OutboundMessageRecord };
      try {
        registered = await storage.transaction(async (tx) => {
          const contact = await resolveContact(tx, {
            workspaceId: workspace.id,
            contact: payload.contact,
            consent,
            newContactId: ids(),
            now,
          });
          const decision = decideFirstMessage(payload, contact);
          const lead: LeadEventRecord = {
            id: leadId,
            workspaceId: workspace.id,
            connectorId: connector.id,
            sourceLeadId: payload.source_lead_id,
            contactId: contact.id,
            opportunityId: ids(),
            eligibleForWhatsapp: decision.eligible,
            payload: payload as Record<string, unknown>,
            qualificationRejected: qualification.rejected,
            receivedAt: now,
          };
          if (!(await tx.leads.insertIfNew(lead))) throw new DuplicateLead();
          await tx.opportunities.insert({
            id: lead.opportunityId,
            workspaceId: workspace.id,
            contactId: contact.id,
            leadEventId: lead.id,
            stage: "new",
            source: payload.context?.source ?? null,
            campaignId: payload.context?.campaign_id ?? null,
            catalogItemId: payload.context?.catalog_item_id ?? null,
            landingPage: payload.context?.landing_page ?? null,
            qualification: qualification.recorded.map((q) => ({
              ...q,
              evidence: { connectorId: connector.id, leadEventId: lead.id, recordedAt: now },
            })),
            createdAt: now,
          });
          const outbound: OutboundMessageRecord = {
            id: ids(),
            workspaceId: workspace.id,
            leadEventId: lead.id,
            contactId: contact.id,
            channel: "whatsapp",
            status: decision.status,
            reason: decision.reason,
            providerMessageId: null,
            createdAt: now,
            updatedAt: now,
          };
          await tx.outbound.insert(outbound);
          return { lead, outbound };
        });
      } catch (error) {
        if (error instanceof DuplicateLead) return previousState(connector.id, payload.source_lead_id);
        throw error;
      }

      const outbound = registered.lead.eligibleForWhatsapp
        ? await sendFirstMessage(registered.outbound, payload)
        : registered.outbound;
      return respond(registered.lead, outbound, qualification.recorded, false);
    },
  };
}
export type LeadIntake = ReturnType<typeof createLeadIntake>;
