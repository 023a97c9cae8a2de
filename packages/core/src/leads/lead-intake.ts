import { VitrinaError } from "../errors.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { Logger } from "../ports/logger.js";
import type { MessagingTransport } from "../ports/messaging.js";
import type {
  LeadEventRecord,
  OutboundMessageRecord,
  OutboundStatus,
  RejectedQualification,
} from "../ports/records.js";
import type { SuppressionHasher } from "../privacy/suppression-hash.js";
import type { Storage } from "../ports/storage.js";
import { decodeJsonBody, DEFAULT_MAX_JSON_DEPTH } from "../http/read-json.js";
import { annotateActiveSpan } from "../telemetry/tracing.js";
import { parseOrThrow } from "../validation.js";
import type { FirstMessageOptions } from "./first-message.js";
import { DEFAULT_CONSENT_CLOCK_SKEW_MS, leadPayloadSchema, refuseConsentFromTheFuture } from "./lead-schema.js";
import { evaluateQualification, type VerticalDefinitions } from "./qualification.js";
import { DuplicateLead, registerLead, SignerChanged, type RegisteredLead } from "./register-lead.js";
import { sendFirstMessage } from "./send-first-message.js";
import type { LeadSignatureHeaders, LeadSignatureVerifier } from "./verify-lead-signature.js";
import { outboundStateOf } from "../channels/whatsapp/outbound-state.js";

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
  /** How far ahead of `clock` a consent timestamp may be; later is refused. Default 5 minutes. */
  consentClockSkewMs?: number;
  /** Hashes the phone for the erasures' suppression entries; absent or null: none are consulted. */
  suppression?: SuppressionHasher | null;
}

/** Deep enough for any real CRM payload; deeper is refused before anything stores it. */
export const MAX_LEAD_JSON_DEPTH = DEFAULT_MAX_JSON_DEPTH;

/**
 * Signed lead intake: verify, validate, then register the lead, its contact, opportunity, consent
 * evidence and outbound record all or nothing (see registerLead), idempotent on (connector, source_lead_id).
 * The first WhatsApp message is sent after the commit, so a slow provider never holds a
 * transaction open, and its outcome updates the outbound record.
 */
export function createLeadIntake(deps: LeadIntakeDeps) {
  const { storage } = deps;

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
    outbound: Pick<OutboundMessageRecord, "status" | "reason" | "delivery"> | null,
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
      outbound: outbound === null ? { status: "blocked", reason: null } : outboundStateOf(outbound),
      qualification: {
        recorded: recorded.map(({ field, value }) => ({ field, value })),
        rejected: lead.qualificationRejected,
      },
    };
  }

  return {
    /** Verifies and registers one signed lead. Throws VitrinaError for every rejection. `logger`: the request's. */
    async receive(
      headers: LeadSignatureHeaders,
      body: Uint8Array,
      logger: Logger = deps.logger,
    ): Promise<LeadIntakeResponse> {
      try {
        return await receiveVerified(headers, body, logger);
      } catch (error) {
        if (!(error instanceof SignerChanged)) throw error;
        // The secret that verified the lead (cached) was rotated since: nothing was written. Verify
        // again against a fresh read, which refuses a lead signed with the old secret.
        deps.verifier.forget(headers.connectorId ?? "");
        return receiveVerified(headers, body, logger).catch((again: unknown) => {
          if (!(again instanceof SignerChanged)) throw again;
          throw new VitrinaError(
            "conflict",
            "the connector's secret was rotated twice while this lead was being registered; nothing was stored, send it again signed with the current secret",
          );
        });
      }
    },
  };

  async function receiveVerified(
    headers: LeadSignatureHeaders,
    body: Uint8Array,
    logger: Logger,
  ): Promise<LeadIntakeResponse> {
    const { connector, workspace } = await deps.verifier.verify(headers, body);
    annotateActiveSpan({ "vitrina.connector.id": connector.id, "vitrina.workspace.id": connector.workspaceId });
    const payload = parseOrThrow(
      leadPayloadSchema,
      decodeJsonBody(body, { maxDepth: MAX_LEAD_JSON_DEPTH, subject: "lead payload", lossyIntegers: true }),
      "lead payload",
    );
    refuseConsentFromTheFuture(payload, deps.clock.now(), deps.consentClockSkewMs ?? DEFAULT_CONSENT_CLOCK_SKEW_MS);
    const qualification = evaluateQualification(
      payload.qualification,
      workspace.vertical,
      workspace.currency,
      deps.verticals,
    );
    let registered: RegisteredLead;
    try {
      registered = await registerLead(storage, deps, { workspace, connector, payload, qualification });
    } catch (error) {
      if (error instanceof DuplicateLead) return previousState(connector.id, payload.source_lead_id);
      throw error;
    }

    const outbound =
      registered.outbound.status === "queued"
        ? await sendFirstMessage({ ...deps, logger }, registered.outbound, payload, registered.claimed)
        : registered.outbound;
    return respond(registered.lead, outbound, qualification.recorded, false);
  }
}
export type LeadIntake = ReturnType<typeof createLeadIntake>;
