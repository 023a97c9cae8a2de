import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type {
  ConnectorRecord,
  ConsentEvidence,
  LeadEventRecord,
  OpportunityRecord,
  OutboundMessageRecord,
  WorkspaceRecord,
} from "../ports/records.js";
import type { StorageTransaction } from "../ports/storage.js";
import { decideFirstMessage, type FirstMessageOptions } from "./first-message.js";
import { limitToOneWelcome } from "./one-welcome-per-contact.js";
import type { LeadPayload } from "./lead-schema.js";
import type { QualificationOutcome } from "./qualification.js";
import { resolveContact } from "./resolve-contact.js";

/** Thrown inside the transaction to roll it back when the lead turns out to be a resend. */
export class DuplicateLead extends Error {}

export interface LeadToRegister {
  workspace: WorkspaceRecord;
  connector: ConnectorRecord;
  payload: LeadPayload;
  qualification: QualificationOutcome;
}

function consentEvidence(
  payload: LeadPayload,
  connectorId: string,
  leadEventId: string,
  now: string,
): ConsentEvidence | null {
  const consent = payload.whatsapp_consent;
  if (!consent) return null;
  return {
    granted: consent.granted,
    timestamp: consent.timestamp ?? "",
    source: consent.source ?? null,
    purpose: consent.purpose ?? null,
    connectorId,
    leadEventId,
    recordedAt: now,
  };
}

/**
 * Everything one lead writes, inside the caller's transaction: the contact (resolved or created,
 * with consent evidence), the lead event (unique on connector + source_lead_id: a resend throws
 * DuplicateLead so the whole transaction rolls back), the opportunity with its qualification
 * evidence, and the first-message record (`blocked` with its reason, or `queued` to be sent). The
 * contact is resolved by phone and stays locked, so the decision to send is taken on a row no
 * concurrent opt-out can change, and at most one lead per window decides to welcome a person.
 */
export async function registerLead(
  tx: StorageTransaction,
  deps: { clock: Clock; ids: IdGenerator; firstMessage?: Pick<FirstMessageOptions, "oncePerContactWithinMs"> },
  { workspace, connector, payload, qualification }: LeadToRegister,
): Promise<{ lead: LeadEventRecord; outbound: OutboundMessageRecord }> {
  const clockNow = deps.clock.now();
  const now = clockNow.toISOString();
  const leadId = deps.ids();
  const resolved = await resolveContact(tx, {
    workspaceId: workspace.id,
    contact: payload.contact,
    consent: consentEvidence(payload, connector.id, leadId, now),
    newContactId: deps.ids(),
    now,
  });
  const { contact } = resolved;
  // The contact row is locked until this transaction ends: the decision below cannot be undercut
  // by an opt-out or by another lead for the same person deciding at the same time.
  const decision = await limitToOneWelcome(
    tx,
    deps.firstMessage ?? {},
    resolved,
    decideFirstMessage(payload, contact),
    clockNow,
  );
  const lead: LeadEventRecord = {
    id: leadId,
    workspaceId: workspace.id,
    connectorId: connector.id,
    sourceLeadId: payload.source_lead_id,
    contactId: contact.id,
    opportunityId: deps.ids(),
    eligibleForWhatsapp: decision.eligible,
    payload: payload as Record<string, unknown>,
    qualificationRejected: qualification.rejected,
    receivedAt: now,
  };
  const opportunity: OpportunityRecord = {
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
  };
  const outbound: OutboundMessageRecord = {
    id: deps.ids(),
    workspaceId: workspace.id,
    leadEventId: lead.id,
    contactId: contact.id,
    channel: "whatsapp",
    status: decision.status,
    reason: decision.reason,
    providerMessageId: null,
    handedToProviderAt: null,
    providerAnsweredAt: null,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await tx.leads.registerIfNew(lead, opportunity, outbound))) throw new DuplicateLead();
  return { lead, outbound };
}
