import { hmacKey, hmacSha256Hex, signedPayload, type HmacKey } from "../crypto/hmac.js";
import { eventHeaderNames } from "./signing-schemes.js";

export const USER_AGENT = "Vitrina-Webhooks/1.0";
/** The receiver has this long to answer 2xx, headers and body (spec: under 5 seconds). */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 5_000;
/** How much of a receiver's answer is read; the rest is cancelled unread. */
export const MAX_RESPONSE_PREFIX_BYTES = 64 * 1024;

/**
 * How much of the answer the delivery history keeps: enough for an error message or the start of
 * an HTML error page, small enough that a busy history stays cheap to store and show.
 */
export const RESPONSE_BODY_PREFIX_BYTES = 1024;

/**
 * Why an attempt failed, set where it fails so that nobody downstream (telemetry, endpoint health)
 * has to parse `error`'s wording: `status` an answer outside 2xx, `timeout` the deadline passed,
 * `network` the connection failed (`networkCode` the socket error code when there was one),
 * `destination_refused` the SSRF guard refused the address, `internal` our own fault.
 */
export type AttemptFailure = "status" | "timeout" | "network" | "destination_refused" | "internal";

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  /** What the delivery history shows: a sentence for people. */
  error: string | null;
  /** Null on success. */
  failure: AttemptFailure | null;
  /** With `failure: "network"`: the socket error code (`ECONNREFUSED`), when the sender gave one. */
  networkCode?: string;
  /** The first `RESPONSE_BODY_PREFIX_BYTES` of the answer as text; null when none came. */
  responseBodyPrefix: string | null;
}

/** One signed POST for a `WebhookSend` to make. */
export interface WebhookSendRequest {
  url: string;
  /** Every request header, the signature included; a sender adds only what HTTP itself needs. */
  headers: Record<string, string>;
  body: string;
  /** Aborts connect, headers and body: the delivery's deadline. */
  signal: AbortSignal;
}

/** What came back: the status and the first `RESPONSE_BODY_PREFIX_BYTES` of the body. */
export interface WebhookAnswer {
  status: number;
  head: Uint8Array;
}

/**
 * How a delivery's POST goes out. It must not follow redirects (a 3xx is the answer), must stop
 * reading the body after `MAX_RESPONSE_PREFIX_BYTES` and drop the connection then, and must reject
 * on a network error or once `signal` aborts. `fetchSender` builds one from any `fetch`;
 * `@vitrina/http-node`'s `nodeWebhookOptions()` passes a cheaper one on undici's request API.
 */
export type WebhookSend = (request: WebhookSendRequest) => Promise<WebhookAnswer>;

/** Bytes as storable text: invalid UTF-8 (or a cut multi-byte character) becomes U+FFFD, and so does U+0000. */
function storableText(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes).replace(/\u0000/g, "\uFFFD");
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, Stripe's scheme, no spaces. */
export async function signatureHeader(secret: string | HmacKey, unixSeconds: number, body: string): Promise<string> {
  const t = String(unixSeconds);
  const key = typeof secret === "string" ? await hmacKey(secret) : secret;
  return `t=${t},v1=${await hmacSha256Hex(key, signedPayload(t, body))}`;
}

/** A failed POST's result: its failure kind, and the sentence the history shows. */
function failedAttempt(error: unknown, timedOut: boolean, timeoutMs: number, durationMs: number): AttemptResult {
  const failed = { ok: false, statusCode: null, durationMs, responseBodyPrefix: null } as const;
  if (timedOut) return { ...failed, failure: "timeout", error: `timed out after ${timeoutMs} ms` };
  // fetch wraps the network error in a TypeError's `cause`; other senders reject with it directly.
  type Coded = { code?: string; message?: string; cause?: Coded };
  const coded = [(error as Coded)?.cause, error as Coded].find((e) => typeof e?.code === "string");
  if (coded?.code !== undefined) {
    const message = `${coded.code}${coded.message ? `: ${coded.message}` : ""}`;
    return { ...failed, failure: "network", networkCode: coded.code, error: message };
  }
  return { ...failed, failure: "network", error: error instanceof Error ? error.message : String(error) };
}

/**
 * Reads at most `limit` bytes of a response body, then cancels the stream so the rest is never
 * downloaded (a receiver answering gigabytes costs us one prefix, not the gigabytes). Resolves
 * early when `signal` aborts, even if the `fetch` in use does not tie its body to the signal.
 */
async function readBodyPrefix(
  response: Response,
  limit: number,
  signal: AbortSignal,
): Promise<{ received: number; head: Uint8Array }> {
  const head = new Uint8Array(RESPONSE_BODY_PREFIX_BYTES);
  const reader = response.body?.getReader();
  if (reader === undefined) return { received: 0, head: head.subarray(0, 0) };
  const aborted = new Promise<never>((_resolve, reject) => {
    const fail = () => reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
    if (signal.aborted) fail();
    else signal.addEventListener("abort", fail, { once: true });
  });
  aborted.catch(() => {});
  let received = 0;
  try {
    while (received < limit) {
      const read = reader.read();
      read.catch(() => {}); // may lose the race and reject once the stream is torn down
      const chunk = await Promise.race([read, aborted]);
      if (chunk.done) break;
      // Only the first bytes are kept; the rest is counted, to stop at the limit.
      if (received < head.length) head.set(chunk.value.subarray(0, head.length - received), received);
      received += chunk.value.byteLength;
    }
    return { received, head: head.subarray(0, Math.min(received, head.length)) };
  } finally {
    // Cancelling an unfinished body closes the connection; on a finished one it does nothing.
    reader.cancel().catch(() => {});
  }
}

/** A `WebhookSend` on a `fetch`: redirects come back unfollowed, the body is read up to the limit. */
export function fetchSender(fetchImpl: typeof fetch): WebhookSend {
  return async ({ url, headers, body, signal }) => {
    const response = await fetchImpl(url, { method: "POST", redirect: "manual", signal, headers, body });
    const { head } = await readBodyPrefix(response, MAX_RESPONSE_PREFIX_BYTES, signal);
    return { status: response.status, head };
  };
}

/**
 * POSTs one signed event envelope. Success is a 2xx whose headers arrive, and whose body ends or
 * passes `MAX_RESPONSE_PREFIX_BYTES`, within `timeoutMs`: one deadline for connect, headers and
 * body. Redirects are not followed (a 3xx is a failure: following one could lead past the SSRF
 * guard), and everything else — non-2xx, timeout, connection error — is a failure.
 */
export async function postWebhook(request: {
  send: WebhookSend;
  url: string;
  body: string;
  /** The `<prefix>-Signature` value (Vitrina's scheme); ignored when `signatureHeaders` is given. */
  signature?: string;
  /** Every signature header, as `signatureHeaders()` builds them for the subscription's scheme. */
  signatureHeaders?: Record<string, string>;
  eventId: string;
  headerPrefix: string;
  timeoutMs: number;
  /** Extra request headers (the trace context); they can't replace the ones set here. */
  headers?: Record<string, string>;
  /**
   * When the attempt's deadline began (a `performance.now()` reading), if before this call: the
   * dispatcher's DNS check counts against the same `timeoutMs`. Default: now.
   */
  startedAt?: number;
}): Promise<AttemptResult> {
  const started = request.startedAt ?? performance.now();
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(
    () => {
      timedOut = true;
      controller.abort();
    },
    Math.max(0, request.timeoutMs - (performance.now() - started)),
  );
  const elapsed = () => Math.round((performance.now() - started) * 100) / 100;
  let bodySettled = false;
  try {
    const answer = await request.send({
      url: request.url,
      signal: controller.signal,
      headers: {
        ...request.headers,
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        ...(request.signatureHeaders ?? {
          [eventHeaderNames(request.headerPrefix).signature]: request.signature ?? "",
        }),
        [eventHeaderNames(request.headerPrefix).eventId]: request.eventId,
      },
      body: request.body,
    });
    bodySettled = true;
    // A late timer (a blocked event loop) must not let a slow exchange pass as a success.
    if (timedOut || elapsed() > request.timeoutMs) throw new Error("deadline passed");
    const { status } = answer;
    const ok = status >= 200 && status < 300;
    const error = ok ? null : status >= 300 && status < 400 ? `redirect ${status} not followed` : `HTTP ${status}`;
    const head = answer.head.subarray(0, RESPONSE_BODY_PREFIX_BYTES);
    const failure = ok ? null : "status";
    return { ok, statusCode: status, durationMs: elapsed(), error, failure, responseBodyPrefix: storableText(head) };
  } catch (error) {
    timedOut ||= elapsed() > request.timeoutMs;
    return failedAttempt(error, timedOut, request.timeoutMs, elapsed());
  } finally {
    clearTimeout(timer);
    // Tears down whatever is still in flight after a failure. After a body that ended (or was
    // cancelled at the limit) there is nothing left to stop, and an abort would only build an
    // AbortError nobody reads (a measurable cost per delivery).
    if (!bodySettled) controller.abort();
  }
}
