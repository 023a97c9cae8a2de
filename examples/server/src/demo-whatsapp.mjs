// The demo's WhatsApp channel: from WHATSAPP_* variables (sends through the Cloud API), else a
// receive-only channel whose secrets the demo generates and keeps in the credentials file, and the
// demo-only route where the tour (examples/whatsapp-provider) finds the id of a message it sent.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { readFile } from "node:fs/promises";
import { DIRECT_BODY_HANDLER, jsonResponse } from "@vitrina/core/http";

/** The receive-only demo channel's business number id, as webhooks name it in `metadata.phone_number_id`. */
export const DEMO_PHONE_NUMBER_ID = "demo-phone-number-id";
/** `GET` with the demo API key: the messages the demo's log transport "sent", newest first (`?to=+569…` for one phone). */
export const DEMO_SENT_MESSAGES_PATH = "/demo/whatsapp/sent";
const KEEP_SENT = 1000;

/**
 * The app secret and verify token for the demo channel: the variables', else the ones the
 * credentials file kept from an earlier start (so a provider or a tour configured with them stays
 * valid across restarts), else fresh ones. `generated` says which the demo made up.
 */
export async function demoWhatsAppSecrets(credentialsPath, env = process.env) {
  const previous = await readFile(credentialsPath, "utf8")
    .then(JSON.parse)
    .catch(() => null);
  const kept = (key, min) =>
    typeof previous?.[key] === "string" && previous[key].length >= min ? previous[key] : null;
  const appSecret = env.WHATSAPP_APP_SECRET || kept("whatsappAppSecret", 8);
  const verifyToken = env.WHATSAPP_VERIFY_TOKEN || kept("whatsappVerifyToken", 16);
  return {
    appSecret: appSecret ?? randomBytes(32).toString("hex"),
    verifyToken: verifyToken ?? `vtr_wv_${randomBytes(24).toString("base64url")}`,
    generated: { appSecret: appSecret === null, verifyToken: verifyToken === null },
  };
}

/**
 * Puts the demo workspace's channel on every start. With WHATSAPP_ACCESS_TOKEN and
 * WHATSAPP_PHONE_NUMBER_ID it sends through the Cloud API (WHATSAPP_GRAPH_URL, default Meta's);
 * otherwise it is receive-only (sends go through the demo's log transport) under
 * WHATSAPP_PHONE_NUMBER_ID or DEMO_PHONE_NUMBER_ID.
 */
export async function putDemoWhatsAppChannel(vitrina, workspaceId, secrets, env = process.env) {
  const cloud = Boolean(env.WHATSAPP_ACCESS_TOKEN && env.WHATSAPP_PHONE_NUMBER_ID);
  const phoneNumberId = env.WHATSAPP_PHONE_NUMBER_ID || DEMO_PHONE_NUMBER_ID;
  const { channel } = await vitrina.whatsapp.channels.put({
    workspaceId,
    phoneNumberId,
    accessToken: cloud ? env.WHATSAPP_ACCESS_TOKEN : null,
    appSecret: secrets.appSecret,
    verifyToken: secrets.verifyToken,
    ...(cloud && env.WHATSAPP_GRAPH_URL && { graphBaseUrl: env.WHATSAPP_GRAPH_URL }),
  });
  return { ...secrets, phoneNumberId, channel };
}

/**
 * Wraps the demo's transport so each message it sends is remembered with the provider id it
 * answered (the log transport's `demo-<uuid>`): a real provider reports statuses by that id, and
 * the tour plays the provider. Bounded like the log transport itself.
 */
export function rememberingSentMessages(transport) {
  const sent = [];
  return {
    sent,
    async send(message) {
      const result = await transport.send(message);
      sent.push({
        to: message.to,
        provider_message_id: result.providerMessageId,
        template: message.template?.name ?? null,
        text: message.text ?? null,
        sent_at: new Date().toISOString(),
      });
      while (sent.length > KEEP_SENT) sent.shift();
      return result;
    },
  };
}

const digest = (value) => createHash("sha256").update(value).digest();

/**
 * Core's handler with the demo-only `GET /demo/whatsapp/sent` in front, which answers the demo API
 * key only. Everything else goes to core's handler unchanged: the wrapper is marked as taking the
 * binding's direct requests (it only reads the URL and headers), so core's fast body path stays on.
 */
export function withDemoSentMessages(handler, { apiKey, sent }) {
  const expected = digest(`Bearer ${apiKey}`);
  const wrapped = async (request) => {
    const url = new URL(request.url);
    if (url.pathname !== DEMO_SENT_MESSAGES_PATH) return handler(request);
    if (request.method !== "GET") return jsonResponse({ error: { code: "method_not_allowed" } }, 405, { allow: "GET" });
    if (!timingSafeEqual(digest(request.headers.get("authorization") ?? ""), expected))
      return jsonResponse({ error: { code: "unauthorized", message: "send the demo API key as a bearer token" } }, 401);
    const to = url.searchParams.get("to");
    const data = sent.filter((m) => to === null || m.to === to).reverse();
    return jsonResponse({ data });
  };
  Object.defineProperty(wrapped, DIRECT_BODY_HANDLER, { value: true });
  return wrapped;
}
