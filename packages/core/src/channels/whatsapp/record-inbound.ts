import { contactRecord } from "../../contacts/contact-record.js";
import { openConversation } from "../../conversations/open-conversation.js";
import { recordConsentChange } from "../../consent/record-consent-change.js";
import type { Clock } from "../../ports/clock.js";
import type { IdGenerator } from "../../ports/ids.js";
import type { ContactRecord } from "../../ports/records.js";
import type { Storage, StorageTransaction } from "../../ports/storage.js";
import { matchKeyword } from "./keywords.js";
import { carryOverSuppression, suppressionHashes } from "../../privacy/carry-over-suppression.js";
import type { SuppressionHasher } from "../../privacy/suppression-hash.js";
import type { OpenedChannel } from "./channel-cache.js";
import type { InboundItem, PreferenceItem } from "./webhook-payload.js";

export interface InboundDeps {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  /** Hashes a new sender's phone and user id for the erasures' suppression entries; absent: none consulted. */
  suppression?: SuppressionHasher | null;
}

/** What became of one inbound message. */
export interface InboundOutcome {
  result: "recorded" | "duplicate";
  contactId: string;
  conversationId: string | null;
  contactCreated: boolean;
  conversationOpened: boolean;
  keyword: "opt_out" | "opt_in" | null;
}

/** The contact an inbound item would create: no consent, no opt-out, the phone and user id it came with. */
function inboundCandidate(
  deps: InboundDeps,
  workspaceId: string,
  person: { phoneE164: string | null; userId: string | null; name: string | null },
): ContactRecord {
  const now = deps.clock.now().toISOString();
  return contactRecord({
    id: deps.ids(),
    workspaceId,
    name: person.name,
    phoneE164: person.phoneE164,
    ...(person.userId !== null && { whatsappUserId: person.userId }),
    createdAt: now,
    updatedAt: now,
  });
}

/** The provider's time, or now if the provider's clock is ahead of ours (the window never opens into the future). */
function notAfterNow(deps: InboundDeps, at: string): string {
  const now = deps.clock.now().toISOString();
  return at > now ? now : at;
}

/**
 * Records one inbound message in one transaction: the sender's contact (found by user id or phone,
 * created without consent for a person writing first), the message in their open WhatsApp
 * conversation (opened with `conversation.started`, `started_by: "contact"`, when they have none),
 * the service window moved to the message's time (the provider's), the ad `referral` as attribution on their newest
 * opportunity, and, for a message that is only an opt-out or opt-in keyword, the consent change.
 *
 * The contact's row lock orders every inbound message of one person: a redelivered copy (the
 * provider retries, to every subscribed app) waits for the first, then finds it and writes nothing.
 */
export async function recordInboundMessage(
  deps: InboundDeps,
  channel: OpenedChannel,
  item: InboundItem,
  /** When it joins the thread: the time Vitrina recorded it (the provider's timestamps have only seconds). */
  recordedAt: string,
): Promise<InboundOutcome> {
  const workspaceId = channel.record.workspaceId;
  const hashes = await suppressionHashes(deps.suppression, workspaceId, item);
  return deps.storage.transaction(async (tx) => {
    const resolved = await tx.contacts.resolveForInbound(
      inboundCandidate(deps, workspaceId, { phoneE164: item.phoneE164, userId: item.userId, name: item.profileName }),
    );
    const { created } = resolved;
    // A person Vitrina erased after they opted out, writing again: their new contact starts opted out.
    const contact = created ? await carryOverSuppression(tx, deps, resolved.contact, hashes) : resolved.contact;
    const outcome = { contactId: contact.id, contactCreated: created };
    if ((await tx.messages.findByProviderId(workspaceId, item.providerMessageId)) !== null)
      return { ...outcome, result: "duplicate", conversationId: null, conversationOpened: false, keyword: null };
    const at = notAfterNow(deps, item.at);
    const { conversationId, opened } = await conversationFor(tx, deps, workspaceId, contact.id, at);
    await tx.messages.insert({
      id: deps.ids(),
      workspaceId,
      conversationId,
      sender: "contact",
      content: item.content,
      providerMessageId: item.providerMessageId,
      kind: item.kind,
      ...(item.replyTo !== null && { replyTo: item.replyTo }),
      details: { ...item.details, provider_timestamp: item.at },
      createdAt: recordedAt,
    });
    await tx.contacts.recordInbound(workspaceId, contact.id, at);
    if (item.referral !== null)
      await tx.opportunities.attributeNewest(workspaceId, contact.id, {
        channel: "whatsapp",
        referral: item.referral,
        provider_message_id: item.providerMessageId,
        at,
      });
    const keyword = item.words === null ? null : matchKeyword(item.words, channel.keywords);
    if (keyword !== null)
      await recordConsentChange(tx, deps, {
        workspaceId,
        contactId: contact.id,
        kind: keyword === "opt_out" ? "opted_out" : "resumed",
        source: "keyword",
        sourceRef: channel.record.phoneNumberId,
        evidence: { provider_message_id: item.providerMessageId, words: item.words, provider_timestamp: item.at },
        occurredAt: at,
        dedupeKey: `keyword:${item.providerMessageId}`,
      });
    return { ...outcome, result: "recorded", conversationId, conversationOpened: opened, keyword };
  });
}

/** The contact's open WhatsApp conversation, touched, or a new one opened by the contact. */
async function conversationFor(
  tx: StorageTransaction,
  deps: InboundDeps,
  workspaceId: string,
  contactId: string,
  at: string,
): Promise<{ conversationId: string; opened: boolean }> {
  const active = await tx.conversations.findActive(workspaceId, contactId, "whatsapp");
  // `touch` re-checks the status on the latest row: one closed meanwhile is not written into.
  const now = deps.clock.now().toISOString();
  if (active !== null && (await tx.conversations.touch(workspaceId, active.id, now)))
    return { conversationId: active.id, opened: false };
  const { conversation } = await openConversation(tx, deps, {
    workspaceId,
    contactId,
    channel: "whatsapp",
    startedBy: "contact",
  });
  return { conversationId: conversation.id, opened: true };
}

/**
 * WhatsApp's own Stop/Resume promotions control, as a consent change: `stop` opts the person out
 * (creating their contact if Vitrina has never seen them, so the next lead for that phone is
 * blocked), `resume` opts them back in. Keyed by person, value and time, so a redelivery adds nothing.
 */
export async function recordPreference(
  deps: InboundDeps,
  channel: OpenedChannel,
  item: PreferenceItem,
): Promise<{ recorded: boolean; contactId: string | null }> {
  const workspaceId = channel.record.workspaceId;
  return deps.storage.transaction(async (tx) => {
    let contact: ContactRecord | null;
    if (item.value === "stop") {
      contact = (
        await tx.contacts.resolveForInbound(
          inboundCandidate(deps, workspaceId, { phoneE164: item.phoneE164, userId: item.userId, name: null }),
        )
      ).contact;
    } else {
      contact =
        (item.userId === null ? null : await tx.contacts.findByWhatsAppUserId(workspaceId, item.userId)) ??
        (item.phoneE164 === null ? null : await tx.contacts.findByPhone(workspaceId, item.phoneE164));
      // Nobody to opt back in: Vitrina never recorded this person, so nothing blocks them.
      if (contact === null) return { recorded: false, contactId: null };
    }
    const person = item.userId ?? item.phoneE164;
    const { recorded } = await recordConsentChange(tx, deps, {
      workspaceId,
      contactId: contact.id,
      kind: item.value === "stop" ? "opted_out" : "resumed",
      source: "whatsapp_preference",
      sourceRef: channel.record.phoneNumberId,
      evidence: {
        category: item.category,
        value: item.value,
        provider_timestamp: item.at,
        ...(item.detail !== null && { detail: item.detail }),
      },
      occurredAt: item.at,
      dedupeKey: `preference:${person}:${item.value}:${item.at}`,
    });
    return { recorded, contactId: contact.id };
  });
}
