import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type {
  ConnectorRecord,
  ConsentEvidence,
  ContactRecord,
  LeadEventRecord,
  OpportunityRecord,
  OutboundMessageRecord,
  WorkspaceRecord,
} from "../ports/records.js";
import type { ClaimForSendingResult, Storage } from "../ports/storage.js";
import { handOver } from "./send-first-message.js";
import { decideFirstMessage, type FirstMessageDecision, type FirstMessageOptions } from "./first-message.js";
import { limitToOneWelcome } from "./one-welcome-per-contact.js";
import type { LeadPayload } from "./lead-schema.js";
import type { QualificationOutcome } from "./qualification.js";
import { leadContact } from "./lead-contact.js";
import { leadConsentEntry } from "../consent/record-consent-change.js";
import { carryOverSuppression } from "../privacy/carry-over-suppression.js";
import type { SuppressionHasher } from "../privacy/suppression-hash.js";

/** Thrown inside the general path's transaction to roll it back when the lead turns out to be a resend. */
export class DuplicateLead extends Error {}

/**
 * Thrown, with nothing written, when the connector's secret was rotated after the one that verified
 * the lead was read (lead intake verifies with a cached secret): the caller verifies again.
 */
export class SignerChanged extends Error {}

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
 * A registered lead: its event and first-message record, and that message's claim for sending when
 * the registration made it (`claimed`: a new person's; otherwise the sender claims it).
 */
export interface RegisteredLead {
  lead: LeadEventRecord;
  outbound: OutboundMessageRecord;
  claimed?: ClaimForSendingResult;
}

/** The ids a lead's records get: drawn once, so a fallback to the general path writes the same ones. */
interface LeadIds {
  lead: string;
  contact: string;
  opportunity: string;
  outbound: string;
}

/**
 * Everything one lead writes: the contact (resolved or created, with consent evidence), the lead
 * event (unique on connector + source_lead_id: a resend throws DuplicateLead), the opportunity with
 * its qualification evidence, and the first-message record (`blocked` with its reason, or `queued`
 * to be sent).
 *
 * A person the workspace has never seen, the usual lead, is registered in one atomic storage call
 * (`registerNewPerson`): their contact is new, so no earlier welcome can name it and no lock is
 * needed to decide. When the phone already has a contact (or the lead is a resend), that call
 * writes nothing and the general path runs in a transaction: the contact is resolved by phone and
 * stays locked, so the decision to send is taken on a row no concurrent opt-out can change, and at
 * most one lead per window decides to welcome a person.
 *
 * Either way the writes happen only while the connector is still at the secret version that
 * verified the lead (`SignerChanged` otherwise): a rotation in any process stops the old secret at
 * once even though verification used a cached one.
 */
export async function registerLead(
  storage: Storage,
  deps: {
    clock: Clock;
    ids: IdGenerator;
    firstMessage?: Pick<FirstMessageOptions, "oncePerContactWithinMs">;
    suppression?: SuppressionHasher | null;
  },
  input: LeadToRegister,
): Promise<RegisteredLead> {
  const now = deps.clock.now();
  const phoneHash =
    deps.suppression == null
      ? undefined
      : await deps.suppression.phone(input.workspace.id, input.payload.contact.phone_e164);
  const at = now.toISOString();
  const ids: LeadIds = { lead: deps.ids(), contact: deps.ids(), opportunity: deps.ids(), outbound: deps.ids() };
  const candidate = leadContact({
    id: ids.contact,
    workspaceId: input.workspace.id,
    contact: input.payload.contact,
    consent: consentEvidence(input.payload, input.connector.id, ids.lead, at),
    now: at,
  });
  const asNewPerson = leadRecords(input, ids, candidate, decideFirstMessage(input.payload, candidate), now);
  const { lead, opportunity } = asNewPerson;
  const { secretVersion } = input.connector;
  // The lead's consent evidence goes to the consent ledger in the same atomic step as the contact.
  const ledgerEntry = (contactId: string) =>
    candidate.whatsappConsent === null
      ? undefined
      : leadConsentEntry(deps.ids, contactId, input.workspace.id, candidate.whatsappConsent);
  // A new person's message to send is handed over by the registration itself (its send lease starts
  // as it commits): the contact is created by the same step with this lead's consent, so nothing can
  // have opted it out, moved its phone or withdrawn consent, which is all the separate claim would check.
  const handedOver = asNewPerson.outbound.status === "queued" ? { ...asNewPerson.outbound, ...handOver(at) } : null;
  const outbound = handedOver ?? asNewPerson.outbound;
  if (
    await storage.leads.registerNewPerson(
      candidate,
      lead,
      opportunity,
      outbound,
      secretVersion,
      ledgerEntry(candidate.id),
      phoneHash,
    )
  )
    return handedOver === null ? asNewPerson : { lead, outbound, claimed: { contact: candidate, claimed: handedOver } };

  return storage.transaction(async (tx) => {
    // registerNewPerson checked this in its own step; this path checks it in its transaction.
    if ((await tx.connectors.get(input.connector.id))?.secretVersion !== secretVersion) throw new SignerChanged();
    const found = await tx.contacts.resolveForLead(candidate);
    // Under the row lock just taken: an erased person who had opted out stays opted out.
    const hashes = phoneHash === undefined ? null : { phoneHash, userIdHash: null };
    const resolved = { ...found, contact: await carryOverSuppression(tx, deps, found.contact, hashes) };
    // The contact row is locked until this transaction ends: the decision below cannot be undercut
    // by an opt-out or by another lead for the same person deciding at the same time.
    const decision = await limitToOneWelcome(
      tx,
      deps.firstMessage ?? {},
      resolved,
      decideFirstMessage(input.payload, resolved.contact),
      now,
    );
    const records = leadRecords(input, ids, resolved.contact, decision, now);
    if (!(await tx.leads.registerIfNew(records.lead, records.opportunity, records.outbound))) throw new DuplicateLead();
    const entry = ledgerEntry(resolved.contact.id);
    if (entry !== undefined) await tx.consentLedger.append(entry);
    return records;
  });
}

/** The lead event, opportunity and first-message record of `input` for `contact`, given the decision. */
function leadRecords(
  { workspace, connector, payload, qualification }: LeadToRegister,
  ids: LeadIds,
  contact: ContactRecord,
  decision: FirstMessageDecision,
  clockNow: Date,
): { lead: LeadEventRecord; opportunity: OpportunityRecord; outbound: OutboundMessageRecord } {
  const now = clockNow.toISOString();
  const lead: LeadEventRecord = {
    id: ids.lead,
    workspaceId: workspace.id,
    connectorId: connector.id,
    sourceLeadId: payload.source_lead_id,
    contactId: contact.id,
    opportunityId: ids.opportunity,
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
    id: ids.outbound,
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
  return { lead, opportunity, outbound };
}
