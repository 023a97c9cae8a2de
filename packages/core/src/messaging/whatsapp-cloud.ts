import { MessagingError } from "../errors.js";
import type { MessagingTransport, OutgoingMessage, SendResult } from "../ports/messaging.js";
import { describeGraphError, type GraphError } from "./graph-error.js";

export interface WhatsAppCloudOptions {
  /** System-user or app access token for the WhatsApp Business Account. */
  accessToken: string;
  /** The sending phone number's id in the WhatsApp Business Account. */
  phoneNumberId: string;
  /** Graph API version, e.g. `v21.0`. */
  apiVersion?: string;
  /**
   * Where the Graph API is: default `https://graph.facebook.com`. Point it at a proxy that adds
   * egress controls, a regional gateway, or a local stand-in for tests and demos; the transport posts
   * to `{baseUrl}/{apiVersion}/{phoneNumberId}/messages`.
   */
  baseUrl?: string;
  /** Per-request timeout; a slow provider becomes a `failed` outcome, never a hung lead. */
  timeoutMs?: number;
  /** How the POST goes out: `@vitrina/http-node`'s `nodeWhatsAppOptions()` passes one on undici's request API. Default: `fetch`. */
  post?: GraphPost;
  /** The `fetch` the default `post` uses (tests, proxies). Default the global one. */
  fetch?: typeof fetch;
}

/** One JSON POST to the Graph API, as a `GraphPost` makes it. */
export interface GraphPostRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Aborts the request: the send's timeout. */
  signal: AbortSignal;
}

/**
 * Makes one POST and reads its whole answer as text; rejects on a network error or once `signal`
 * aborts. The transport's only use of HTTP, so a platform can pass a cheaper one than `fetch`, which
 * builds a Request, a Response and web streams for every call: measured on the deployed demo
 * server, `fetch` took about 7 % of the server's CPU per lead, undici's request API a fifth of that.
 */
export type GraphPost = (request: GraphPostRequest) => Promise<{ status: number; text: string }>;

/** A `GraphPost` on `fetch`: the default, and what every runtime with `fetch` can use. */
export function fetchGraphPost(fetchImpl?: typeof fetch): GraphPost {
  return async ({ url, headers, body, signal }) => {
    // Looked up per call, not captured: test interceptors and polyfills patch globalThis.fetch later.
    const response = await (fetchImpl ?? globalThis.fetch)(url, { method: "POST", headers, body, signal });
    return { status: response.status, text: await response.text() };
  };
}

interface GraphSendResponse {
  messages?: Array<{ id?: string; message_status?: string }>;
  error?: GraphError;
}

/**
 * WhatsApp Cloud API transport: POST `{baseUrl}/{version}/{phoneNumberId}/messages`.
 * Template messages for business-initiated conversations (the first message of a lead),
 * text messages inside the customer-service window.
 */
export function whatsAppCloudTransport(options: WhatsAppCloudOptions): MessagingTransport {
  const post = options.post ?? fetchGraphPost(options.fetch);
  const url = `${options.baseUrl ?? "https://graph.facebook.com"}/${options.apiVersion ?? "v21.0"}/${options.phoneNumberId}/messages`;
  const timeoutMs = options.timeoutMs ?? 10_000;

  function body(message: OutgoingMessage): Record<string, unknown> {
    const base = {
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: message.to.replace(/^\+/, ""),
      ...(message.correlationId !== undefined && { biz_opaque_callback_data: message.correlationId }),
    };
    if (message.template) {
      const { name, language, bodyParameters } = message.template;
      return {
        ...base,
        type: "template",
        template: {
          name,
          language: { code: language },
          components:
            bodyParameters.length > 0
              ? [{ type: "body", parameters: bodyParameters.map((text) => ({ type: "text", text })) }]
              : [],
        },
      };
    }
    return { ...base, type: "text", text: { body: message.text ?? "" } };
  }

  return {
    async send(message): Promise<SendResult> {
      let response: { status: number; text: string };
      // A timer cleared with the answer, rather than `AbortSignal.timeout`, whose timer outlives
      // every send by `timeoutMs` and whose signal Node tracks until it is collected.
      const deadline = new AbortController();
      const timer = setTimeout(
        () => deadline.abort(new DOMException(`no answer within ${timeoutMs} ms`, "TimeoutError")),
        timeoutMs,
      );
      try {
        response = await post({
          url,
          headers: { authorization: `Bearer ${options.accessToken}`, "content-type": "application/json" },
          body: JSON.stringify(body(message)),
          signal: deadline.signal,
        });
      } catch (cause) {
        throw new MessagingError(`WhatsApp Cloud API unreachable: ${(cause as Error).message}`, { cause });
      } finally {
        clearTimeout(timer);
      }
      const json = parsedAnswer(response.text);
      if (response.status < 200 || response.status > 299) {
        throw new MessagingError(
          describeGraphError(response.status, `HTTP ${response.status}`, json.error, message.template),
        );
      }
      const sent = json.messages?.[0];
      if (!sent?.id) throw new MessagingError("WhatsApp Cloud API answered without a message id");
      // `accepted` (like `held_for_quality_assessment` and `paused`) only means the Cloud API took
      // the message: `sent`, `delivered`, `read` or `failed` arrive later by webhook, so it is queued.
      return { status: "queued", providerMessageId: sent.id };
    },
  };
}

/** The Graph API's JSON answer, or an empty one for a body that isn't JSON (a proxy's error page). */
function parsedAnswer(text: string): GraphSendResponse {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null ? (parsed as GraphSendResponse) : {};
  } catch {
    return {};
  }
}
