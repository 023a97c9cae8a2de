import { z } from "zod";
import { NotFoundError, VitrinaError } from "../../errors.js";
import { generateSecret, sha256Hex } from "../../crypto/random.js";
import type { Clock } from "../../ports/clock.js";
import type { SecretBox } from "../../ports/secret-box.js";
import type { Storage } from "../../ports/storage.js";
import type { WhatsAppChannelRecord } from "../../ports/whatsapp-storage.js";
import { parseOrThrow } from "../../validation.js";
import { isStorableText } from "../../validation/storable-text.js";
import {
  DEFAULT_OPT_IN_KEYWORDS,
  DEFAULT_OPT_OUT_KEYWORDS,
  MAX_KEYWORD_LENGTH,
  MAX_KEYWORDS,
  normalizeKeyword,
} from "./keywords.js";

export const DEFAULT_GRAPH_BASE_URL = "https://graph.facebook.com";
export const DEFAULT_GRAPH_API_VERSION = "v21.0";
const VERIFY_TOKEN_PREFIX = "vtr_wv_";

const printable = (what: string, min: number, max: number) =>
  z
    .string()
    .min(min, { error: `must be at least ${min} characters` })
    .max(max, { error: `must be at most ${max} characters` })
    .refine((v) => isStorableText(v) && !/[\s\u0000-\u001f\u007f]/.test(v), {
      error: `${what} must not contain spaces or control characters`,
    });

const keywordList = z
  .array(
    z
      .string()
      .max(MAX_KEYWORD_LENGTH, { error: `must be at most ${MAX_KEYWORD_LENGTH} characters` })
      .refine((word) => isStorableText(word) && normalizeKeyword(word) !== "", {
        error: "must contain a letter or a digit",
      }),
  )
  .min(1, { error: "must list at least one keyword (or be null for the defaults)" })
  .max(MAX_KEYWORDS, { error: `must list at most ${MAX_KEYWORDS} keywords` })
  .nullable();

const channelInput = z.strictObject({
  workspaceId: z.string().min(1),
  phoneNumberId: z.string().regex(/^[0-9A-Za-z_-]{1,64}$/, {
    error: "must be the provider's phone number id (digits, at most 64 characters)",
  }),
  accessToken: printable("the access token", 1, 4096).nullable().optional(),
  appSecret: printable("the app secret", 8, 256).optional(),
  verifyToken: printable("the verify token", 16, 256).optional(),
  graphBaseUrl: z
    .string()
    .max(2048)
    .refine(
      (url) => {
        try {
          const parsed = new URL(url);
          return (
            (parsed.protocol === "https:" || parsed.protocol === "http:") && parsed.search === "" && parsed.hash === ""
          );
        } catch {
          return false;
        }
      },
      { error: "must be an absolute http(s) URL without query or fragment, e.g. https://graph.facebook.com" },
    )
    .optional(),
  apiVersion: z
    .string()
    .regex(/^v[0-9]{1,3}\.[0-9]{1,3}$/, { error: "must look like v21.0" })
    .optional(),
  optOutKeywords: keywordList.optional(),
  optInKeywords: keywordList.optional(),
});
export type WhatsAppChannelInput = z.input<typeof channelInput>;

/** What the admin API, the console and the CLI show of a channel: never a secret. */
export interface WhatsAppChannelView {
  workspace_id: string;
  phone_number_id: string;
  /** `cloud_api`: sends through the Graph API with the stored token; `messaging_transport`: through the transport given in code. */
  sends_through: "cloud_api" | "messaging_transport";
  graph_base_url: string;
  api_version: string;
  opt_out_keywords: string[];
  opt_in_keywords: string[];
  /** True when the lists above are the defaults. */
  default_keywords: { opt_out: boolean; opt_in: boolean };
  created_at: string;
  updated_at: string;
}

export function channelView(channel: WhatsAppChannelRecord): WhatsAppChannelView {
  return {
    workspace_id: channel.workspaceId,
    phone_number_id: channel.phoneNumberId,
    sends_through: channel.sealedAccessToken === null ? "messaging_transport" : "cloud_api",
    graph_base_url: channel.graphBaseUrl,
    api_version: channel.apiVersion,
    opt_out_keywords: [...(channel.optOutKeywords ?? DEFAULT_OPT_OUT_KEYWORDS)],
    opt_in_keywords: [...(channel.optInKeywords ?? DEFAULT_OPT_IN_KEYWORDS)],
    default_keywords: { opt_out: channel.optOutKeywords === null, opt_in: channel.optInKeywords === null },
    created_at: channel.createdAt,
    updated_at: channel.updatedAt,
  };
}

/** The verify token as stored: its SHA-256, so a database read never yields it. */
export const verifyTokenHash = (token: string) => sha256Hex(`whatsapp-verify-token:${token}`);

/**
 * A workspace's WhatsApp channel: set (create or change), read, remove. Secrets (access token,
 * app secret) are sealed at rest and never shown again; the verify token is kept only as a hash,
 * and when Vitrina generates it, `put` returns it once. Authorization is the caller's.
 */
export function createWhatsAppChannelService(deps: {
  storage: Storage;
  secretBox: SecretBox;
  clock: Clock;
  /** Called after a change, so caches of the channel (the sending transport, webhook keys) drop it. */
  onChange?: (workspaceId: string) => void;
}) {
  const { storage, secretBox, clock } = deps;
  return {
    /**
     * Creates or changes the workspace's channel. On creation `appSecret` is required; on a change
     * any secret left out is kept (`accessToken: null` makes the channel receive-only). Returns the
     * channel's view and, when Vitrina generated one (creation without `verifyToken`), the verify
     * token to paste into the provider's dashboard: shown this once.
     */
    async put(input: WhatsAppChannelInput): Promise<{ channel: WhatsAppChannelView; verifyToken: string | null }> {
      const parsed = parseOrThrow(channelInput, input, "WhatsApp channel");
      const existing = await storage.whatsappChannels.get(parsed.workspaceId);
      if (existing === null && parsed.appSecret === undefined)
        throw new VitrinaError("invalid_payload", "WhatsApp channel is invalid", {
          reasons: [
            {
              field: "appSecret",
              reason: "is required to create a channel (the Meta app's secret signs its webhooks)",
            },
          ],
        });
      const generated =
        existing === null && parsed.verifyToken === undefined ? generateSecret(VERIFY_TOKEN_PREFIX) : null;
      const verifyToken = parsed.verifyToken ?? generated;
      const now = clock.now().toISOString();
      const seal = (value: string | null | undefined, kept: string | null) =>
        value === undefined ? Promise.resolve(kept) : value === null ? Promise.resolve(null) : secretBox.seal(value);
      const record: WhatsAppChannelRecord = {
        workspaceId: parsed.workspaceId,
        phoneNumberId: parsed.phoneNumberId,
        sealedAccessToken: await seal(parsed.accessToken, existing?.sealedAccessToken ?? null),
        sealedAppSecret: (await seal(parsed.appSecret, existing?.sealedAppSecret ?? null))!,
        verifyTokenHash: verifyToken === null ? existing!.verifyTokenHash : await verifyTokenHash(verifyToken),
        graphBaseUrl: (parsed.graphBaseUrl ?? existing?.graphBaseUrl ?? DEFAULT_GRAPH_BASE_URL).replace(/\/+$/, ""),
        apiVersion: parsed.apiVersion ?? existing?.apiVersion ?? DEFAULT_GRAPH_API_VERSION,
        optOutKeywords:
          parsed.optOutKeywords === undefined ? (existing?.optOutKeywords ?? null) : parsed.optOutKeywords,
        optInKeywords: parsed.optInKeywords === undefined ? (existing?.optInKeywords ?? null) : parsed.optInKeywords,
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
      };
      const stored = await storage.whatsappChannels.put(record);
      deps.onChange?.(parsed.workspaceId);
      return { channel: channelView(stored), verifyToken: generated };
    },

    async get(workspaceId: string): Promise<WhatsAppChannelView | null> {
      const channel = await storage.whatsappChannels.get(workspaceId);
      return channel === null ? null : channelView(channel);
    },

    async remove(workspaceId: string): Promise<void> {
      if (!(await storage.whatsappChannels.delete(workspaceId)))
        throw new NotFoundError(`workspace ${workspaceId} has no WhatsApp channel`);
      deps.onChange?.(workspaceId);
    },
  };
}
export type WhatsAppChannelService = ReturnType<typeof createWhatsAppChannelService>;
