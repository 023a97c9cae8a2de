import { bytesToHex, utf8Bytes } from "../crypto/encoding.js";
import { hmacKey, hmacSha256Hex } from "../crypto/hmac.js";
import { fakeGraphApi, type ApprovedTemplate } from "./fake-graph-api.js";

/**
 * Plays the WhatsApp Cloud API's side of the webhook in tests: builds its payloads in the shapes it
 * documents (one `entry`, one `changes[]` item per call unless told otherwise) and signs them as it
 * does (`X-Hub-Signature-256: sha256=<hex HMAC-SHA256(raw body, app secret)>`).
 *
 * ```ts
 * const meta = whatsAppProvider({ phoneNumberId: "1065", appSecret });
 * const body = meta.batch({ messages: [meta.text("56912345678", "BAJA")] });
 * await vitrina.handler(await meta.request(`${url}/functions/v1/whatsapp-webhook`, body));
 * // The sending side: a Cloud API that knows `vitrina_welcome` (es, one parameter) as approved.
 * const graph = meta.graphApi();
 * const messaging = whatsAppCloudTransport({ accessToken: "t", phoneNumberId: "1065", fetch: graph.fetch });
 * ```
 */
export function whatsAppProvider(options: { phoneNumberId: string; appSecret: string; wabaId?: string }) {
  let counter = 0;
  const nextId = () => `wamid.HBgL${bytesToHex(utf8Bytes(`${Date.now()}-${++counter}`)).slice(0, 40)}`;
  const seconds = (at: Date | number = Date.now()) =>
    String(Math.floor((typeof at === "number" ? at : at.getTime()) / 1000));

  type Json = Record<string, unknown>;
  const provider = {
    nextId,
    seconds,
    /** An inbound text message from `waId` (digits, no `+`). */
    text(waId: string, body: string, over: Json = {}): Json {
      return { from: waId, id: nextId(), timestamp: seconds(), type: "text", text: { body }, ...over };
    },
    /** An inbound message of any `type` with its object. */
    message(waId: string, type: string, content: Json, over: Json = {}): Json {
      return { from: waId, id: nextId(), timestamp: seconds(), type, [type]: content, ...over };
    },
    /** A status of a message the business sent; `failed` takes the provider's error code and title. */
    status(
      id: string,
      status: "sent" | "delivered" | "read" | "failed",
      recipient: string,
      over: { at?: Date | number; error?: { code: number; title: string } } & Json = {},
    ): Json {
      const { at, error, ...rest } = over;
      return {
        id,
        status,
        timestamp: seconds(at),
        recipient_id: recipient,
        ...(error !== undefined && { errors: [{ code: error.code, title: error.title }] }),
        ...rest,
      };
    },
    /** WhatsApp's own Stop/Resume promotions control. */
    preference(waId: string, value: "stop" | "resume", at: Date | number = Date.now()): Json {
      return {
        wa_id: waId,
        detail: `User requested to ${value} marketing messages`,
        category: "marketing_messages",
        value,
        timestamp: seconds(at),
      };
    },
    /** The webhook body: one entry with one change holding the given arrays (and `contacts` profiles for the senders). */
    batch(
      value: { messages?: Json[]; statuses?: Json[]; user_preferences?: Json[]; contacts?: Json[] },
      phoneNumberId = options.phoneNumberId,
    ): Json {
      const senders = [...new Set((value.messages ?? []).map((m) => m.from as string))];
      return {
        object: "whatsapp_business_account",
        entry: [
          {
            id: options.wabaId ?? "102290129340398",
            changes: [
              {
                field: value.user_preferences ? "user_preferences" : "messages",
                value: {
                  messaging_product: "whatsapp",
                  metadata: { display_phone_number: "15550783881", phone_number_id: phoneNumberId },
                  contacts: value.contacts ?? senders.map((wa_id) => ({ profile: { name: "Cliente" }, wa_id })),
                  ...(value.messages && { messages: value.messages }),
                  ...(value.statuses && { statuses: value.statuses }),
                  ...(value.user_preferences && { user_preferences: value.user_preferences }),
                },
              },
            ],
          },
        ],
      };
    },
    /**
     * The Cloud API's send endpoint as a `fetch`: approved `templates` (default `vitrina_welcome`, es,
     * one body parameter) are accepted and kept in `sent`; anything else gets the provider's error.
     */
    graphApi(graph: { templates?: ApprovedTemplate[] } = {}) {
      return fakeGraphApi({ phoneNumberId: options.phoneNumberId, nextId, ...graph });
    },
    /** `sha256=<hex>` of `body` under the app secret (or `secret`). */
    async sign(body: string, secret = options.appSecret): Promise<string> {
      return `sha256=${await hmacSha256Hex(await hmacKey(secret), utf8Bytes(body))}`;
    },
    /** A signed POST of `body` (an object is serialised) to `url`. */
    async request(url: string, body: Json | string, headers: Record<string, string> = {}): Promise<Request> {
      const text = typeof body === "string" ? body : JSON.stringify(body);
      return new Request(url, {
        method: "POST",
        headers: { "content-type": "application/json", "x-hub-signature-256": await provider.sign(text), ...headers },
        body: text,
      });
    },
  };
  return provider;
}
export type WhatsAppProvider = ReturnType<typeof whatsAppProvider>;
