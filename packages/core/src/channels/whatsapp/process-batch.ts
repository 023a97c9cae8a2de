import { recordConsentChange } from "../../consent/record-consent-change.js";
import { StorageError } from "../../errors.js";
import { describeError } from "../../logging/loggers.js";
import type { Logger } from "../../ports/logger.js";
import type { ContactRecord } from "../../ports/records.js";
import type { RecordedStatus } from "../../ports/whatsapp-storage.js";
import type { OpenedChannel } from "./channel-cache.js";
import { foldStatuses } from "./delivery-status.js";
import { MARKETING_OPT_OUT_CODE } from "./error-codes.js";
import { recordInboundMessage, recordPreference, type InboundDeps } from "./record-inbound.js";
import { settleFirstMessageFromStatus } from "./settle-first-message.js";
import type { FirstMessageOptions } from "../../leads/first-message.js";
import type { StatusItem, WebhookItem } from "./webhook-payload.js";

/** What a batch came to, per kind: the webhook route answers it and logs it. */
export interface BatchSummary {
  messages: { recorded: number; duplicates: number };
  statuses: { recorded: number; unknownMessages: number };
  preferences: { recorded: number; duplicates: number };
  optOuts: number;
  /** Items that could not be used (malformed, or failed on their own), each logged with its reason. */
  skipped: number;
}

export const emptySummary = (): BatchSummary => ({
  messages: { recorded: 0, duplicates: 0 },
  statuses: { recorded: 0, unknownMessages: 0 },
  preferences: { recorded: 0, duplicates: 0 },
  optOuts: 0,
  skipped: 0,
});

/**
 * Runs one item's work; an item that fails on its own (its content) is logged and counted, and
 * the rest of the batch goes on. Storage being unavailable is not the item's fault: it propagates,
 * the route answers 503 and the provider redelivers the batch later (every step is idempotent).
 */
async function eachOnItsOwn(
  logger: Logger,
  summary: BatchSummary,
  context: Record<string, unknown>,
  work: () => Promise<void>,
): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (error instanceof StorageError) throw error;
    summary.skipped++;
    logger.error(
      { ...context, cause: describeError(error) },
      "WhatsApp webhook item failed; the rest of the batch went on",
    );
  }
}

/**
 * Records every item of a verified batch for one channel (one workspace): inbound messages,
 * WhatsApp's marketing preferences, then the delivery statuses folded into one report per message
 * and merged in one storage step. A status `failed` with 131050 (the person stopped marketing
 * messages) is an opt-out. Logs carry ids, kinds and counts, never a person's phone or words.
 */
export async function processChannelItems(
  deps: InboundDeps & { logger: Logger; firstMessage: FirstMessageOptions },
  channel: OpenedChannel,
  items: WebhookItem[],
  summary: BatchSummary,
): Promise<void> {
  const { logger } = deps;
  const workspaceId = channel.record.workspaceId;
  const statuses: StatusItem[] = [];
  // The thread orders messages by when they were recorded; within one batch, in the batch's order
  // (a clock reading can repeat within a millisecond).
  let recordedAt = "";
  const nextRecordedAt = () => {
    const now = deps.clock.now().toISOString();
    recordedAt = now > recordedAt ? now : new Date(Date.parse(recordedAt) + 1).toISOString();
    return recordedAt;
  };
  for (const item of items) {
    if (item.type === "status") statuses.push(item);
    if (item.type === "message")
      await eachOnItsOwn(logger, summary, { workspaceId, path: item.path, kind: item.kind }, async () => {
        const outcome = await recordInboundMessage(deps, channel, item, nextRecordedAt());
        if (outcome.result === "duplicate") summary.messages.duplicates++;
        else summary.messages.recorded++;
        if (outcome.keyword === "opt_out") summary.optOuts++;
        logger.info(
          {
            workspaceId,
            providerMessageId: item.providerMessageId,
            kind: item.kind,
            contactId: outcome.contactId,
            conversationId: outcome.conversationId,
            result: outcome.result,
            ...(outcome.contactCreated && { contactCreated: true }),
            ...(outcome.conversationOpened && { conversationOpened: true }),
            ...(outcome.keyword !== null && { keyword: outcome.keyword }),
          },
          "WhatsApp inbound message",
        );
      });
    if (item.type === "preference")
      await eachOnItsOwn(logger, summary, { workspaceId, path: item.path }, async () => {
        const { recorded, contactId } = await recordPreference(deps, channel, item);
        if (recorded) summary.preferences.recorded++;
        else summary.preferences.duplicates++;
        if (recorded && item.value === "stop") summary.optOuts++;
        logger.info(
          { workspaceId, contactId, value: item.value, category: item.category, recorded },
          contactId === null
            ? "WhatsApp resume preference for a person Vitrina never recorded"
            : "WhatsApp marketing preference",
        );
      });
  }
  // First messages whose send answer was lost, named by the correlation their statuses echo:
  // settled before the statuses are merged, so those join them at once.
  for (const item of statuses)
    if (item.correlation !== null)
      await eachOnItsOwn(
        deps.logger,
        summary,
        { workspaceId: channel.record.workspaceId, path: item.path },
        async () => {
          await settleFirstMessageFromStatus(deps, channel, item);
        },
      );
  if (statuses.length > 0) await recordStatuses(deps, channel, statuses, summary);
}

async function recordStatuses(
  deps: InboundDeps & { logger: Logger },
  channel: OpenedChannel,
  statuses: StatusItem[],
  summary: BatchSummary,
): Promise<void> {
  const workspaceId = channel.record.workspaceId;
  const recorded = await deps.storage.deliveryReports.recordStatuses(
    workspaceId,
    foldStatuses(statuses.map((item) => item.status)),
  );
  summary.statuses.recorded += statuses.length;
  const unknown = recorded.filter((r) => r.contactId === null);
  summary.statuses.unknownMessages += unknown.length;
  if (unknown.length > 0)
    deps.logger.info(
      { workspaceId, providerMessageIds: unknown.slice(0, 20).map((r) => r.providerMessageId), count: unknown.length },
      "WhatsApp statuses for messages Vitrina has not recorded (yet): kept, and applied when the send is recorded",
    );
  const failures = recorded.filter((r) => r.state.status === "failed");
  if (failures.length > 0)
    deps.logger.warn(
      {
        workspaceId,
        failures: failures
          .slice(0, 20)
          .map((r) => ({ providerMessageId: r.providerMessageId, code: r.state.failureCode })),
        count: failures.length,
      },
      "WhatsApp reported failed messages",
    );
  // 131050: the person stopped marketing messages from this business: an opt-out, once per message.
  const byMessage = new Map(statuses.map((item) => [item.status.providerMessageId, item]));
  for (const report of recorded) {
    if (report.state.failureCode !== MARKETING_OPT_OUT_CODE) continue;
    const item = byMessage.get(report.providerMessageId)!;
    await eachOnItsOwn(deps.logger, summary, { workspaceId, providerMessageId: report.providerMessageId }, async () => {
      if (await optOutFor131050(deps, channel, report, item)) summary.optOuts++;
    });
  }
}

/** The recipient of a message that failed with 131050, opted out (found by the message, else by phone or user id). */
async function optOutFor131050(
  deps: InboundDeps & { logger: Logger },
  channel: OpenedChannel,
  report: RecordedStatus,
  item: StatusItem,
): Promise<boolean> {
  const workspaceId = channel.record.workspaceId;
  return deps.storage.transaction(async (tx) => {
    let contact: ContactRecord | null =
      report.contactId === null ? null : await tx.contacts.get(workspaceId, report.contactId);
    if (contact === null && item.recipientUserId !== null)
      contact = await tx.contacts.findByWhatsAppUserId(workspaceId, item.recipientUserId);
    if (contact === null && item.recipientE164 !== null)
      contact = await tx.contacts.findByPhone(workspaceId, item.recipientE164);
    if (contact === null) {
      deps.logger.warn(
        { workspaceId, providerMessageId: report.providerMessageId },
        "WhatsApp 131050 (marketing opt-out) for a recipient Vitrina has no contact for; nothing to record",
      );
      return false;
    }
    const { recorded } = await recordConsentChange(tx, deps, {
      workspaceId,
      contactId: contact.id,
      kind: "opted_out",
      source: "error_131050",
      sourceRef: channel.record.phoneNumberId,
      evidence: {
        provider_message_id: report.providerMessageId,
        error_code: MARKETING_OPT_OUT_CODE,
        ...(report.state.failureTitle !== null && { error_title: report.state.failureTitle }),
        provider_timestamp: report.state.failedAt,
      },
      occurredAt: report.state.failedAt ?? deps.clock.now().toISOString(),
      dedupeKey: `131050:${report.providerMessageId}`,
    });
    if (recorded)
      deps.logger.info(
        { workspaceId, contactId: contact.id, providerMessageId: report.providerMessageId },
        "WhatsApp 131050: contact opted out of marketing messages",
      );
    return recorded;
  });
}
