import type { HmacKey } from "../../crypto/hmac.js";
import type { MessagingTransport } from "../../ports/messaging.js";
import type { SecretBox } from "../../ports/secret-box.js";
import type { Storage } from "../../ports/storage.js";
import type { WhatsAppChannelRecord } from "../../ports/whatsapp-storage.js";
import { whatsAppCloudTransport, type GraphPost } from "../../messaging/whatsapp-cloud.js";
import { DEFAULT_OPT_IN_KEYWORDS, DEFAULT_OPT_OUT_KEYWORDS } from "./keywords.js";
import { webhookKey } from "./webhook-signature.js";

/** A channel with what its record seals opened: the transport its token sends with, the key its webhooks verify with. */
export interface OpenedChannel {
  record: WhatsAppChannelRecord;
  /** Null for a receive-only channel (sends go through the `messaging` transport). */
  transport: MessagingTransport | null;
  webhookKey: HmacKey;
  keywords: { optOut: readonly string[]; optIn: readonly string[] };
}

/** How long a process reuses a workspace's channel before reading it again (a change made by another process shows within it). */
export const CHANNEL_CACHE_MS = 5_000;

/**
 * Channels opened once per version: unsealing and key import cost more than a lookup, and every
 * first message and webhook needs them. Entries are keyed by workspace and checked against the
 * record's `updatedAt`, so a changed channel is reopened; a workspace's own changes drop its entry
 * at once (`forget`), other processes' within `CHANNEL_CACHE_MS`.
 */
export function createChannelCache(deps: {
  storage: Storage;
  secretBox: SecretBox;
  post?: GraphPost;
  fetch?: typeof fetch;
}) {
  const opened = new Map<string, { version: string; channel: Promise<OpenedChannel> }>();
  const byWorkspace = new Map<string, { until: number; record: WhatsAppChannelRecord | null }>();

  async function open(record: WhatsAppChannelRecord): Promise<OpenedChannel> {
    const accessToken = record.sealedAccessToken === null ? null : await deps.secretBox.open(record.sealedAccessToken);
    return {
      record,
      transport:
        accessToken === null
          ? null
          : whatsAppCloudTransport({
              accessToken,
              phoneNumberId: record.phoneNumberId,
              apiVersion: record.apiVersion,
              baseUrl: record.graphBaseUrl,
              ...(deps.post && { post: deps.post }),
              ...(deps.fetch && { fetch: deps.fetch }),
            }),
      webhookKey: await webhookKey(await deps.secretBox.open(record.sealedAppSecret)),
      keywords: {
        optOut: record.optOutKeywords ?? DEFAULT_OPT_OUT_KEYWORDS,
        optIn: record.optInKeywords ?? DEFAULT_OPT_IN_KEYWORDS,
      },
    };
  }

  /** The opened form of `record`, reused while the record is unchanged. */
  function openedFor(record: WhatsAppChannelRecord): Promise<OpenedChannel> {
    const version = `${record.phoneNumberId}@${record.updatedAt}`;
    const cached = opened.get(record.workspaceId);
    if (cached !== undefined && cached.version === version) return cached.channel;
    const channel = open(record);
    opened.set(record.workspaceId, { version, channel });
    // A failed unseal (wrong key) is not kept: the next call tries again and reports it again.
    channel.catch(() => opened.delete(record.workspaceId));
    return channel;
  }

  return {
    openedFor,
    /** The workspace's channel, opened, or null when it has none. */
    async forWorkspace(workspaceId: string): Promise<OpenedChannel | null> {
      const now = Date.now();
      let entry = byWorkspace.get(workspaceId);
      if (entry === undefined || entry.until <= now) {
        entry = { until: now + CHANNEL_CACHE_MS, record: await deps.storage.whatsappChannels.get(workspaceId) };
        byWorkspace.set(workspaceId, entry);
      }
      return entry.record === null ? null : openedFor(entry.record);
    },
    forget(workspaceId: string): void {
      byWorkspace.delete(workspaceId);
      opened.delete(workspaceId);
    },
  };
}
export type ChannelCache = ReturnType<typeof createChannelCache>;

/**
 * The transport Vitrina sends with: a message for a workspace with a WhatsApp channel that holds an
 * access token goes through that channel's Cloud API number; anything else through `fallback` (the
 * `messaging` transport given to `createVitrina`).
 */
export function channelRoutingTransport(channels: ChannelCache, fallback: MessagingTransport): MessagingTransport {
  return {
    async send(message) {
      const channel = message.workspaceId === undefined ? null : await channels.forWorkspace(message.workspaceId);
      return (channel?.transport ?? fallback).send(message);
    },
  };
}
