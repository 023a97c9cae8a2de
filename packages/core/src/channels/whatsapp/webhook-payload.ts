import { isStorableText, toStorableText } from "../../validation/storable-text.js";
import type { ProviderStatus } from "../../ports/records.js";
import type { ParsedStatus } from "./delivery-status.js";

/**
 * The provider's webhook envelope, read item by item. Every `entry[]`, `changes[]`, `messages[]`,
 * `statuses[]` and `user_preferences[]` is read (libraries that read only the first of each lost
 * the rest of a batch). An item that can't be used becomes `invalid` with the reason and never
 * stops the others. Text a person wrote is kept, with U+0000 and lone surrogates replaced by
 * U+FFFD (storage can't hold them, and dropping the message would lose it); ids that hold them are
 * refused, since they key records.
 */
export type WebhookItem = InboundItem | StatusItem | PreferenceItem | InvalidItem;

interface ItemBase {
  phoneNumberId: string;
  /** Where in the batch it was, e.g. `entry[0].changes[1].value.messages[3]`, for the log. */
  path: string;
}

/** A message a person sent to the business number. */
export interface InboundItem extends ItemBase {
  type: "message";
  providerMessageId: string;
  /** The sender's phone as E.164 (`+` and the `wa_id` digits), or null for a username-only sender. */
  phoneE164: string | null;
  /** The business-scoped user id, when the provider sent one. */
  userId: string | null;
  /** The profile name from `contacts[]`, cut to 200 characters. */
  profileName: string | null;
  /** The provider's timestamp as ISO 8601. */
  at: string;
  /** The message's `type` (`text`, `button`, `interactive`, `image`, …), kept even when unknown to Vitrina. */
  kind: string;
  /** A readable summary for the thread: the text, or `[image] caption`. */
  content: string;
  /** What the person said in words (text, button or list reply title), for keyword matching; null otherwise. */
  words: string | null;
  replyTo: string | null;
  /** The kind's own object as received (storable copy), plus `referral` and `errors` when present. */
  details: Record<string, unknown>;
  /** The click-to-WhatsApp ad that brought the person, when present. */
  referral: Record<string, unknown> | null;
}

/** A delivery status of a message the business sent. */
export interface StatusItem extends ItemBase {
  type: "status";
  status: ParsedStatus;
  /** The recipient as E.164, or null when the provider sent none (username-only recipients). */
  recipientE164: string | null;
  recipientUserId: string | null;
  /** What Vitrina sent as `biz_opaque_callback_data`, echoed back: which message this is when its id was never recorded. */
  correlation: string | null;
}

/** WhatsApp's own "Stop/Resume promotions" control. */
export interface PreferenceItem extends ItemBase {
  type: "preference";
  phoneE164: string | null;
  userId: string | null;
  value: "stop" | "resume";
  category: string;
  at: string;
  /** The provider's own words about it (`detail`), storable copy. */
  detail: string | null;
}

export interface InvalidItem {
  type: "invalid";
  phoneNumberId: string | null;
  path: string;
  reason: string;
}

/** Ids and keys: short, storable, printable. */
const MAX_ID_LENGTH = 512;
const MAX_PROFILE_NAME = 200;
const MAX_CONTENT = 8192;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const arrayOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

function idOf(value: unknown): string | null {
  if (typeof value !== "string" || value === "" || value.length > MAX_ID_LENGTH) return null;
  return isStorableText(value) ? value : null;
}

function textOf(value: unknown, max: number): string | null {
  if (typeof value !== "string") return null;
  return toStorableText(value.length > max ? value.slice(0, max) : value);
}

/** `wa_id` digits as E.164, or null unless they look like a phone number (8 to 15 digits). */
export function e164FromWaId(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const digits = value.startsWith("+") ? value.slice(1) : value;
  return /^[1-9][0-9]{7,14}$/.test(digits) ? `+${digits}` : null;
}

/** The provider's Unix-seconds string as ISO 8601, or null when it isn't one (or is out of range). */
export function isoFromUnixSeconds(value: unknown): string | null {
  const text = typeof value === "number" ? String(value) : value;
  if (typeof text !== "string" || !/^[0-9]{1,12}$/.test(text)) return null;
  const ms = Number(text) * 1000;
  // Before 2000 or after 2200: not a timestamp the provider sends.
  if (ms < 946684800000 || ms > 7258118400000) return null;
  return new Date(ms).toISOString();
}

/** A copy of `value` with every string (keys too) storable, and nothing but JSON in it. */
export function storableCopy(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return toStorableText(value);
  if (typeof value !== "object" || value === null) return value;
  if (depth > 16) return "[nested too deep]";
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => storableCopy(v, depth + 1));
  const out: Json = {};
  for (const [key, v] of Object.entries(value).slice(0, 100)) out[toStorableText(key)] = storableCopy(v, depth + 1);
  return out;
}

const PROVIDER_STATUSES: readonly string[] = ["sent", "delivered", "read", "failed"];

/** The readable summary and the words of an inbound message of `kind`. */
function summarise(kind: string, message: Json): { content: string; words: string | null } {
  const body = isObject(message[kind]) ? (message[kind] as Json) : {};
  const cut = (text: string | null) => (text === null ? null : text.slice(0, MAX_CONTENT));
  switch (kind) {
    case "text": {
      const text = textOf(body.body, MAX_CONTENT) ?? "";
      return { content: text, words: text };
    }
    case "button": {
      const text = textOf(body.text, MAX_CONTENT) ?? textOf(body.payload, MAX_CONTENT) ?? "";
      return { content: `[button] ${text}`.trim(), words: text };
    }
    case "interactive": {
      const reply = [body.button_reply, body.list_reply, body.nfm_reply].find(isObject) as Json | undefined;
      const title = reply === undefined ? null : (textOf(reply.title, MAX_CONTENT) ?? textOf(reply.name, MAX_CONTENT));
      return { content: `[reply] ${title ?? ""}`.trim(), words: title };
    }
    case "reaction":
      return { content: `[reaction] ${textOf(body.emoji, 64) ?? "(removed)"}`, words: null };
    case "location": {
      const place = [body.name, body.address].map((v) => textOf(v, 500)).filter((v) => v) as string[];
      const where = place.length > 0 ? place.join(", ") : `${String(body.latitude)}, ${String(body.longitude)}`;
      return { content: cut(`[location] ${where}`)!, words: null };
    }
    case "image":
    case "video":
    case "audio":
    case "document":
    case "sticker": {
      const caption = textOf(body.caption, MAX_CONTENT) ?? textOf(body.filename, 500);
      return { content: cut(`[${kind}]${caption ? ` ${caption}` : ""}`)!, words: null };
    }
    default:
      return { content: `[${toStorableText(kind).slice(0, 40)} message]`, words: null };
  }
}

function parseMessage(
  message: unknown,
  path: string,
  phoneNumberId: string,
  profiles: Map<string, { name: string | null; userId: string | null }>,
): InboundItem | InvalidItem {
  const invalid = (reason: string): InvalidItem => ({ type: "invalid", phoneNumberId, path, reason });
  if (!isObject(message)) return invalid("not an object");
  const providerMessageId = idOf(message.id);
  if (providerMessageId === null) return invalid("id is missing or not a storable id");
  const at = isoFromUnixSeconds(message.timestamp);
  if (at === null) return invalid("timestamp is not Unix seconds");
  const from = typeof message.from === "string" ? message.from : null;
  const profile = from === null ? undefined : profiles.get(from);
  const phoneE164 = e164FromWaId(from);
  const userId = idOf(message.from_user_id) ?? profile?.userId ?? null;
  if (phoneE164 === null && userId === null)
    return invalid("neither a phone (from) nor a user id identifies the sender");
  const kind = idOf(message.type) ?? "unknown";
  const { content, words } = summarise(kind, message);
  const context = isObject(message.context) ? message.context : null;
  const referral = isObject(message.referral) ? (storableCopy(message.referral) as Json) : null;
  const details: Json = {};
  if (message[kind] !== undefined) details[toStorableText(kind)] = storableCopy(message[kind]);
  if (referral !== null) details.referral = referral;
  if (Array.isArray(message.errors)) details.errors = storableCopy(message.errors);
  return {
    type: "message",
    phoneNumberId,
    path,
    providerMessageId,
    phoneE164,
    userId,
    profileName: profile?.name ?? null,
    at,
    kind,
    content,
    words,
    replyTo: context === null ? null : idOf(context.id),
    details,
    referral,
  };
}

function parseStatus(status: unknown, path: string, phoneNumberId: string): StatusItem | InvalidItem {
  const invalid = (reason: string): InvalidItem => ({ type: "invalid", phoneNumberId, path, reason });
  if (!isObject(status)) return invalid("not an object");
  const providerMessageId = idOf(status.id);
  if (providerMessageId === null) return invalid("id is missing or not a storable id");
  if (typeof status.status !== "string" || !PROVIDER_STATUSES.includes(status.status))
    return invalid(
      `status ${JSON.stringify(String(status.status).slice(0, 40))} is not sent, delivered, read or failed`,
    );
  const at = isoFromUnixSeconds(status.timestamp);
  if (at === null) return invalid("timestamp is not Unix seconds");
  const error = arrayOf(status.errors).find(isObject);
  const code = error !== undefined && Number.isSafeInteger(error.code) ? (error.code as number) : null;
  const title = error === undefined ? null : (textOf(error.title, 500) ?? textOf(error.message, 500));
  return {
    type: "status",
    phoneNumberId,
    path,
    status: {
      providerMessageId,
      status: status.status as ProviderStatus,
      at,
      failureCode: status.status === "failed" ? code : null,
      failureTitle: status.status === "failed" ? title : null,
    },
    recipientE164: e164FromWaId(status.recipient_id),
    recipientUserId: idOf(status.recipient_user_id),
    correlation: idOf(status.biz_opaque_callback_data),
  };
}

function parsePreference(preference: unknown, path: string, phoneNumberId: string): PreferenceItem | InvalidItem {
  const invalid = (reason: string): InvalidItem => ({ type: "invalid", phoneNumberId, path, reason });
  if (!isObject(preference)) return invalid("not an object");
  if (preference.value !== "stop" && preference.value !== "resume") return invalid("value is not stop or resume");
  const at = isoFromUnixSeconds(preference.timestamp);
  if (at === null) return invalid("timestamp is not Unix seconds");
  const phoneE164 = e164FromWaId(preference.wa_id);
  const userId = idOf(preference.user_id);
  if (phoneE164 === null && userId === null) return invalid("neither wa_id nor user_id identifies the person");
  return {
    type: "preference",
    phoneNumberId,
    path,
    phoneE164,
    userId,
    value: preference.value,
    category: textOf(preference.category, 100) ?? "marketing_messages",
    at,
    detail: textOf(preference.detail, 500),
  };
}

/** The phone number ids a batch names (to find the channels, and with them the app secret to verify it). */
export function phoneNumberIdsOf(body: unknown): string[] {
  const ids = new Set<string>();
  for (const entry of arrayOf(isObject(body) ? body.entry : undefined)) {
    for (const change of arrayOf(isObject(entry) ? entry.changes : undefined)) {
      const value = isObject(change) && isObject(change.value) ? change.value : null;
      const id = value !== null && isObject(value.metadata) ? idOf(value.metadata.phone_number_id) : null;
      if (id !== null) ids.add(id);
    }
  }
  return [...ids];
}

/** Every item of a batch, in order, each either usable or `invalid` with the reason. */
export function parseWebhookBatch(body: unknown): WebhookItem[] {
  const items: WebhookItem[] = [];
  arrayOf(isObject(body) ? body.entry : undefined).forEach((entry, e) => {
    arrayOf(isObject(entry) ? entry.changes : undefined).forEach((change, c) => {
      const at = `entry[${e}].changes[${c}]`;
      if (!isObject(change) || !isObject(change.value)) {
        items.push({ type: "invalid", phoneNumberId: null, path: at, reason: "change has no value object" });
        return;
      }
      const value = change.value;
      const phoneNumberId = isObject(value.metadata) ? idOf(value.metadata.phone_number_id) : null;
      if (phoneNumberId === null) {
        items.push({
          type: "invalid",
          phoneNumberId: null,
          path: at,
          reason: "value.metadata.phone_number_id is missing",
        });
        return;
      }
      const profiles = new Map<string, { name: string | null; userId: string | null }>();
      for (const contact of arrayOf(value.contacts)) {
        if (!isObject(contact) || typeof contact.wa_id !== "string") continue;
        const profile = isObject(contact.profile) ? contact.profile : {};
        profiles.set(contact.wa_id, { name: textOf(profile.name, MAX_PROFILE_NAME), userId: idOf(contact.user_id) });
      }
      arrayOf(value.messages).forEach((m, i) =>
        items.push(parseMessage(m, `${at}.value.messages[${i}]`, phoneNumberId, profiles)),
      );
      arrayOf(value.statuses).forEach((s, i) =>
        items.push(parseStatus(s, `${at}.value.statuses[${i}]`, phoneNumberId)),
      );
      arrayOf(value.user_preferences).forEach((p, i) =>
        items.push(parsePreference(p, `${at}.value.user_preferences[${i}]`, phoneNumberId)),
      );
    });
  });
  return items;
}
