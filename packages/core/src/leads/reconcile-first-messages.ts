import { VitrinaError } from "../errors.js";
import { describeError } from "../logging/loggers.js";
import type { OutboundMessageRecord } from "../ports/records.js";
import type { LeadPayload } from "./lead-schema.js";
import { sendFirstMessage, type SendFirstMessageDeps } from "./send-first-message.js";

/** `leadIntake.firstMessageRecovery` of `createVitrina`. */
export interface FirstMessageRecoveryOptions {
  /** How long a provider call may take before its outcome counts as unknown. Default 600000 (10 minutes). */
  leaseMs?: number;
  /** A message never handed to the provider is still sent up to this age; older ones are marked failed. Default 3600000 (1 hour). */
  lateSendWindowMs?: number;
  /** How often the worker sweeps. Default 60000. */
  intervalMs?: number;
}
export type FirstMessageRecoverySettings = Required<FirstMessageRecoveryOptions>;

export const OUTCOME_UNKNOWN_REASON =
  "outcome unknown: the process stopped while the messaging provider was being called; check the provider's dashboard before sending it again";
export const TOO_LATE_REASON =
  "not sent: the process stopped before the message reached the messaging provider, and it is now too late for a first message; send it by hand if still wanted";
export const PAYLOAD_REDACTED_REASON =
  "not sent: the process stopped before the message reached the messaging provider, and the lead's payload has since been redacted";

export function resolveFirstMessageRecovery(options: FirstMessageRecoveryOptions = {}): FirstMessageRecoverySettings {
  const settings = { leaseMs: 600_000, lateSendWindowMs: 3600_000, intervalMs: 60_000, ...options };
  for (const [field, value] of Object.entries(settings)) {
    if (!Number.isInteger(value) || value < 1) {
      throw new VitrinaError(
        "invalid_argument",
        `leadIntake.firstMessageRecovery.${field} must be a positive integer`,
        {
          reasons: [{ field: `leadIntake.firstMessageRecovery.${field}`, reason: "must be a positive integer" }],
        },
      );
    }
  }
  return settings;
}

export interface FirstMessageRecoveryReport {
  /** Handed to the provider, no answer recorded, lease passed: marked `failed` (outcome unknown). */
  outcomeUnknown: number;
  /** Never reached the provider: sent now (after the consent re-check), whatever the outcome. */
  sentLate: number;
  /** Never reached the provider and too old (or its payload redacted): marked `failed`. */
  abandoned: number;
}

/**
 * Settles first messages a crash left `queued`, without ever sending one twice:
 * - handed to the provider (`handedToProviderAt`) and unanswered past `leaseMs`: the provider may
 *   or may not have it, so it is marked `failed` with a reason telling the operator to check the
 *   provider before resending. Never resent automatically.
 * - never handed over (the process stopped between the lead's commit and the send): the provider
 *   cannot have it, so it goes through `sendFirstMessage` (consent re-checked under the contact's
 *   row lock, claimed by compare-and-set so a late original request cannot send it too) while it
 *   is younger than `lateSendWindowMs`; older ones are marked `failed`.
 * Processes one batch of at most `limit`; returns what it did.
 */
export async function reconcileFirstMessages(
  deps: SendFirstMessageDeps,
  settings: FirstMessageRecoverySettings,
  limit = 100,
): Promise<FirstMessageRecoveryReport & { examined: number }> {
  const now = deps.clock.now();
  const at = now.toISOString();
  const report = { outcomeUnknown: 0, sentLate: 0, abandoned: 0, examined: 0 };
  const unsettled = await deps.storage.outbound.listUnsettled(
    new Date(now.getTime() - settings.leaseMs).toISOString(),
    limit,
  );
  for (const message of unsettled) {
    report.examined++;
    try {
      if (message.handedToProviderAt !== null) {
        if (await deps.storage.outbound.failInFlight(message.id, OUTCOME_UNKNOWN_REASON, at)) {
          report.outcomeUnknown++;
          deps.logger.warn(
            { outboundId: message.id, leadEventId: message.leadEventId },
            "first message outcome unknown; marked failed",
          );
        }
      } else if (await settleNeverSent(deps, message, now, settings)) report.sentLate++;
      else report.abandoned++;
    } catch (error) {
      deps.logger.error(
        { outboundId: message.id, error: describeError(error) },
        "reconciling a first message failed; retrying at the next sweep",
      );
    }
  }
  return report;
}

/** True when it was handed to the provider now; false when it was marked failed instead. */
async function settleNeverSent(
  deps: SendFirstMessageDeps,
  message: OutboundMessageRecord,
  now: Date,
  settings: FirstMessageRecoverySettings,
) {
  const abandon = (reason: string) =>
    deps.storage.outbound
      .claimUnsent(message.id, { status: "failed", reason, handedToProviderAt: null, updatedAt: now.toISOString() })
      .then(() => false);
  if (now.getTime() - new Date(message.createdAt).getTime() > settings.lateSendWindowMs)
    return abandon(TOO_LATE_REASON);
  const lead = await deps.storage.leads.get(message.leadEventId);
  if (lead === null || lead.payloadRedactedAt !== undefined) return abandon(PAYLOAD_REDACTED_REASON);
  // The payload was validated when the lead was registered and is stored as received.
  const sent = await sendFirstMessage(deps, message, lead.payload as unknown as LeadPayload);
  return sent.handedToProviderAt !== null;
}
