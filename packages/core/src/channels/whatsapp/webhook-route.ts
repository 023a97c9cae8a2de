import { SignatureError, VitrinaError } from "../../errors.js";
import { timingSafeEqualStrings } from "../../crypto/hmac.js";
import type { Route } from "../../http/router.js";
import { jsonResponse } from "../../http/json.js";
import { readBodyLimited } from "../../http/read-body.js";
import type { Logger } from "../../ports/logger.js";
import type { Storage } from "../../ports/storage.js";
import type { ChannelCache, OpenedChannel } from "./channel-cache.js";
import { verifyTokenHash } from "./channel-service.js";
import { emptySummary, processChannelItems, type BatchSummary } from "./process-batch.js";
import type { InboundDeps } from "./record-inbound.js";
import type { FirstMessageOptions } from "../../leads/first-message.js";
import { parseWebhookBatch, phoneNumberIdsOf, type WebhookItem } from "./webhook-payload.js";
import { SIGNATURE_HEADER, signatureHexOf, verifyWebhookSignature } from "./webhook-signature.js";

/** Where the provider posts: the callback URL to set in the Meta app's dashboard. */
export const WHATSAPP_WEBHOOK_PATH = "/functions/v1/whatsapp-webhook";

/** The provider sends batches of up to 3 MB; a little headroom over that. */
export const DEFAULT_WHATSAPP_WEBHOOK_BODY_LIMIT = 4 * 1024 * 1024;

export interface WhatsAppWebhookRouteOptions extends InboundDeps {
  channels: ChannelCache;
  maxBodyBytes: number;
  /** What first messages say, to write one whose send answer was lost into its thread when a status settles it. */
  firstMessage: FirstMessageOptions;
}

/** The provider's verification handshake and callbacks: their format is the WhatsApp Cloud API's, not an API of ours. */
const CALLED_BY_THE_PROVIDER = {
  openapi: false as const,
  undocumented: "the WhatsApp Cloud API's webhook: called by the provider, in the provider's documented format",
};

/** A 200 the provider accepts and does not retry; the summary is for people and tests. */
const accepted = (body: unknown) => jsonResponse(body, 200);

/**
 * The handshake: `hub.mode=subscribe` with a `hub.verify_token` that some channel's token hashes
 * to → 200 with the raw `hub.challenge` (as text); anything else → 403. The stored value is a
 * hash, so the lookup compares hashes; the comparison of the mode is constant-time for symmetry.
 */
async function handshake(request: Request, storage: Storage, logger: Logger): Promise<Response> {
  const query = new URL(request.url).searchParams;
  const mode = query.get("hub.mode") ?? "";
  const token = query.get("hub.verify_token");
  const challenge = query.get("hub.challenge");
  const refuse = (reason: string) => {
    logger.warn({ reason }, "WhatsApp webhook handshake refused");
    return new Response("forbidden", { status: 403, headers: { "content-type": "text/plain; charset=utf-8" } });
  };
  if (!timingSafeEqualStrings(mode, "subscribe")) return refuse("hub.mode is not subscribe");
  if (token === null || token === "" || token.length > 512) return refuse("hub.verify_token is missing");
  if (challenge === null || challenge.length > 1024) return refuse("hub.challenge is missing or too long");
  if (!(await storage.whatsappChannels.hasVerifyTokenHash(await verifyTokenHash(token))))
    return refuse("hub.verify_token matches no channel's verify token");
  logger.info({}, "WhatsApp webhook handshake accepted");
  return new Response(challenge, { status: 200, headers: { "content-type": "text/plain; charset=utf-8" } });
}

/** The channels whose app secret signed the body: of those the batch names, the ones the signature verifies under. */
async function signedBy(
  channels: OpenedChannel[],
  body: Uint8Array,
  text: string,
  signatureHex: string,
): Promise<OpenedChannel[]> {
  const verified: OpenedChannel[] = [];
  // Channels of one Meta app share its secret: one HMAC per distinct key, not per channel.
  const outcomes = new Map<unknown, Promise<boolean>>();
  for (const channel of channels) {
    let outcome = outcomes.get(channel.webhookKey);
    if (outcome === undefined)
      outcomes.set(
        channel.webhookKey,
        (outcome = verifyWebhookSignature(channel.webhookKey, body, text, signatureHex)),
      );
    if (await outcome) verified.push(channel);
  }
  return verified;
}

/**
 * `GET|POST /functions/v1/whatsapp-webhook`: the WhatsApp Cloud API's callback.
 *
 * POST: the batch names its business numbers (`metadata.phone_number_id`); each selects a
 * workspace's channel, whose app secret must verify `X-Hub-Signature-256` over the raw bytes
 * (401, logged, nothing written, otherwise). Every item of the numbers it verified for is then
 * recorded before the answer: 200 only once the batch is durable, since the provider redelivers
 * anything else for up to 7 days. A number no channel has → 200, logged, nothing written (so the
 * provider doesn't retry for a week). An item that can't be used is logged and skipped; a signed
 * batch is never answered 5xx for its content, only when storage is unavailable (503, redelivered).
 */
export function whatsAppWebhookRoutes(options: WhatsAppWebhookRouteOptions): Route[] {
  const { storage, channels } = options;
  return [
    {
      method: "GET",
      path: WHATSAPP_WEBHOOK_PATH,
      ...CALLED_BY_THE_PROVIDER,
      handler: (request, _params, { logger }) => handshake(request, storage, logger),
    },
    {
      method: "POST",
      path: WHATSAPP_WEBHOOK_PATH,
      readsBodyDirectly: true,
      ...CALLED_BY_THE_PROVIDER,
      async handler(request, _params, { logger }) {
        const signatureHex = signatureHexOf(request.headers.get(SIGNATURE_HEADER));
        const body = await readBodyLimited(request, options.maxBodyBytes);
        let text: string;
        let batch: unknown;
        try {
          text = new TextDecoder("utf-8", { fatal: true }).decode(body);
          batch = JSON.parse(text);
        } catch (cause) {
          logger.warn({ bytes: body.length }, "WhatsApp webhook refused: the body is not UTF-8 JSON");
          throw new VitrinaError("malformed_json", "request body is not valid UTF-8 JSON", { cause });
        }
        const phoneNumberIds = phoneNumberIdsOf(batch);
        const known = await storage.whatsappChannels.findByPhoneNumberIds(phoneNumberIds);
        if (known.length === 0) {
          logger.warn(
            { phoneNumberIds: phoneNumberIds.slice(0, 10) },
            "WhatsApp webhook for a phone number id no channel has: answered 200, nothing written",
          );
          return accepted({ received: true, recorded: false, reason: "no channel has this phone number id" });
        }
        if (signatureHex === null) {
          logger.warn(
            { phoneNumberIds: phoneNumberIds.slice(0, 10) },
            "WhatsApp webhook refused: X-Hub-Signature-256 is missing or malformed",
          );
          throw new SignatureError("missing_signature_headers", "X-Hub-Signature-256: sha256=<hex> is required");
        }
        const opened = await Promise.all(known.map((record) => channels.openedFor(record)));
        const verified = await signedBy(opened, body, text, signatureHex);
        if (verified.length === 0) {
          logger.warn(
            { phoneNumberIds: phoneNumberIds.slice(0, 10), workspaceIds: known.map((c) => c.workspaceId) },
            "WhatsApp webhook refused: X-Hub-Signature-256 does not match the channel's app secret",
          );
          throw new SignatureError("invalid_signature", "X-Hub-Signature-256 does not match the app secret");
        }
        const summary = await processBatch(options, logger, verified, parseWebhookBatch(batch));
        logger.info(
          { workspaceIds: verified.map((c) => c.record.workspaceId), ...summary },
          "WhatsApp webhook batch recorded",
        );
        return accepted({ received: true, recorded: true, ...summary });
      },
    },
  ];
}

async function processBatch(
  options: WhatsAppWebhookRouteOptions,
  logger: Logger,
  verified: OpenedChannel[],
  items: WebhookItem[],
): Promise<BatchSummary> {
  const summary = emptySummary();
  const byNumber = new Map(verified.map((channel) => [channel.record.phoneNumberId, channel]));
  const perChannel = new Map<OpenedChannel, WebhookItem[]>();
  for (const item of items) {
    const channel = item.phoneNumberId === null ? undefined : byNumber.get(item.phoneNumberId);
    if (item.type === "invalid" || channel === undefined) {
      summary.skipped++;
      logger.warn(
        {
          path: item.path,
          reason:
            item.type === "invalid" ? item.reason : "its phone number id has no channel verified by this signature",
        },
        "WhatsApp webhook item skipped",
      );
      continue;
    }
    const list = perChannel.get(channel);
    if (list === undefined) perChannel.set(channel, [item]);
    else list.push(item);
  }
  for (const [channel, channelItems] of perChannel)
    await processChannelItems({ ...options, logger }, channel, channelItems, summary);
  return summary;
}
