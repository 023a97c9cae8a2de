import { WebhookVerificationError } from "./errors.js";
import type { WebhookEvent } from "./types.js";
import type { VerifyWebhook, WebhookSignatureScheme } from "./webhook-signature.js";

/** Deliveries are small JSON envelopes; anything larger is refused before it is buffered. */
export const MAX_WEBHOOK_BODY_BYTES = 1024 * 1024;

export interface WebhookReceiverOptions {
  /** One secret, or several while rotating. */
  secret: string | readonly string[];
  /** Runs after the 200 is returned (not awaited): Vitrina wants an answer within 5 seconds. */
  onEvent: (event: WebhookEvent) => unknown;
  /** Delivery is at least once: return true for an event id you've already handled. */
  isDuplicate?: (eventId: string) => boolean | Promise<boolean>;
  /** Gets errors thrown by `onEvent` or `isDuplicate`; defaults to `console.error`. */
  onError?: (error: unknown, event?: WebhookEvent) => void;
  toleranceSeconds?: number;
  headerPrefix?: string;
  /** The subscription's `signature_scheme`; default `"vitrina"`. */
  scheme?: WebhookSignatureScheme;
}

export type WebhookHandler = (request: Request) => Promise<Response>;
export interface CreateWebhookReceiver {
  /**
   * A fetch-style handler (`Request` → `Response`) for Node (via any adapter), Deno, Bun, workers
   * and framework route handlers. It verifies, dedupes, answers fast and then calls `onEvent`.
   */
  (options: WebhookReceiverOptions): WebhookHandler;
}

// Bad input the sender can fix answers 400; a signature or clock problem answers 401.
const STATUS_BY_CODE: Record<WebhookVerificationError["code"], number> = {
  missing_header: 400,
  malformed_header: 400,
  invalid_payload: 400,
  timestamp_outside_tolerance: 401,
  no_matching_signature: 401,
};

export function createCreateWebhookReceiver(verifyWebhook: VerifyWebhook): CreateWebhookReceiver {
  return ({ secret, onEvent, isDuplicate, onError = defaultOnError, toleranceSeconds, headerPrefix, scheme }) =>
    async (request) => {
      if (request.method !== "POST") return json(405, errorBody("method_not_allowed", "use POST"), { Allow: "POST" });
      const payload = await readCapped(request, MAX_WEBHOOK_BODY_BYTES);
      if (payload === null) return json(413, errorBody("payload_too_large", "body exceeds 1 MiB"));
      let event: WebhookEvent;
      try {
        event = verifyWebhook({ payload, header: request.headers, secret, toleranceSeconds, headerPrefix, scheme });
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        return json(STATUS_BY_CODE[error.code], errorBody(error.code, error.message));
      }
      try {
        if (await isDuplicate?.(event.id)) return json(200, { received: true, duplicate: true });
      } catch (error) {
        onError(error, event);
        // A 5xx makes the sender retry later, which is right when the dedupe store is down.
        return json(500, errorBody("duplicate_check_failed", "could not check for a duplicate"));
      }
      Promise.resolve()
        .then(() => onEvent(event))
        .catch((error: unknown) => onError(error, event));
      return json(200, { received: true });
    };
}

/** The body's bytes, or `null` once it exceeds `limit` (checked on Content-Length, then while streaming). */
async function readCapped(request: Request, limit: number): Promise<Uint8Array | null> {
  if (Number(request.headers.get("content-length") ?? 0) > limit) return null;
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(read.value);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

function errorBody(code: string, message: string) {
  return { error: { code, message } };
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
}

function defaultOnError(error: unknown): void {
  console.error("[vitrina] webhook handler error", error);
}
