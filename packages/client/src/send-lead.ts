import { LeadIntakeError, type FieldReason } from "./errors.js";
import type { SignLead } from "./lead-signing.js";
import type { LeadIntakeResponse, LeadPayload } from "./types.js";

export interface SendLeadOptions {
  connectorId: string;
  secret: string;
  /** The payload, or an already-serialised JSON string sent byte for byte. */
  lead: LeadPayload | string;
  /** Defaults to the global `fetch`; pass one for proxies, retries or tests. */
  fetch?: typeof globalThis.fetch;
  /** Unix milliseconds; defaults to `Date.now()`. */
  timestamp?: number | string;
  signal?: AbortSignal;
  /**
   * How long to wait for the whole answer, headers and body, before giving up with `timeout`.
   * Default 30000. Resending after a timeout is safe: the same `source_lead_id` answers
   * `duplicate: true` if the first attempt was registered.
   */
  timeoutMs?: number;
  headerPrefix?: string;
}

const DEFAULT_SEND_LEAD_TIMEOUT_MS = 30_000;

/** `signal` and a timer as one signal (AbortSignal.any where the runtime has it). */
function withTimeout(signal: AbortSignal | undefined, timeout: AbortSignal): AbortSignal {
  if (signal === undefined) return timeout;
  if (typeof AbortSignal.any === "function") return AbortSignal.any([signal, timeout]);
  const both = new AbortController();
  for (const one of [signal, timeout]) {
    if (one.aborted) both.abort(one.reason);
    else one.addEventListener("abort", () => both.abort(one.reason), { once: true });
  }
  return both.signal;
}

export interface SendLead {
  /**
   * Signs and POSTs a lead, resolving with the typed intake response (a duplicate resolves too,
   * with `duplicate: true`). Rejects with `LeadIntakeError` on non-2xx or a network failure.
   */
  (url: string | URL, options: SendLeadOptions): Promise<LeadIntakeResponse>;
}

export function createSendLead(signLead: SignLead): SendLead {
  return async (
    url,
    {
      connectorId,
      secret,
      lead,
      fetch = globalThis.fetch,
      timestamp,
      signal,
      timeoutMs = DEFAULT_SEND_LEAD_TIMEOUT_MS,
      headerPrefix,
    },
  ) => {
    if (typeof timeoutMs !== "number" || !(timeoutMs > 0) || !Number.isFinite(timeoutMs)) {
      throw new TypeError(`sendLead: timeoutMs must be a positive number of milliseconds, got ${String(timeoutMs)}`);
    }
    const { headers, body } = signLead({ connectorId, secret, body: lead, timestamp, headerPrefix });
    const timer = AbortSignal.timeout(timeoutMs);
    const failure = (cause: unknown, what: string) =>
      signal?.aborted
        ? cause // the caller's own cancellation, as is (an AbortError)
        : timer.aborted
          ? new LeadIntakeError(0, "timeout", `lead intake did not answer within ${timeoutMs} ms`, [], { cause })
          : new LeadIntakeError(0, "network_error", `${what}: ${String(cause)}`, [], { cause });
    let response: Response;
    let text: string;
    try {
      // A redirect is never followed: fetch would re-send the signed lead (a person's data) to
      // wherever the Location points, another host included.
      response = await fetch(url, {
        method: "POST",
        headers,
        body,
        signal: withTimeout(signal, timer),
        redirect: "manual",
      });
    } catch (cause) {
      throw failure(cause, "lead intake unreachable");
    }
    if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
      await response.body?.cancel().catch(() => {});
      const location = response.headers.get("location");
      throw new LeadIntakeError(
        response.status,
        "redirected",
        `lead intake answered ${response.status || "a redirect"}${location ? ` to ${location}` : ""}; ` +
          "the signed lead was not sent there: send it to the final URL yourself if you trust it",
      );
    }
    try {
      text = await response.text();
    } catch (cause) {
      // The connection broke after the status line (a reset, a proxy cutting the body): still a
      // network failure the caller retries, not an untyped TypeError("terminated"). A retry is
      // safe: the same source_lead_id answers duplicate: true if the first one was registered.
      throw failure(cause, `lead intake answered ${response.status} but the body broke off`);
    }
    if (!response.ok) throw errorFromResponse(response, text);
    try {
      return JSON.parse(text) as LeadIntakeResponse;
    } catch (cause) {
      throw new LeadIntakeError(response.status, "invalid_response", "lead intake answered 2xx without JSON", [], {
        cause,
      });
    }
  };
}

/** Reads `{ error: { code, message, reasons } }`, falling back field by field when it's absent. */
function errorFromResponse(response: Response, text: string): LeadIntakeError {
  let error: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    const inner = isObject(parsed) ? parsed.error : undefined;
    if (isObject(inner)) error = inner;
  } catch {
    // Not JSON (a proxy's HTML page, say): keep the defaults below.
  }
  const code = typeof error.code === "string" ? error.code : `http_${response.status}`;
  const fallback = text.trim().slice(0, 200) || response.statusText || `HTTP ${response.status}`;
  const message = typeof error.message === "string" ? error.message : fallback;
  const reasons = Array.isArray(error.reasons) ? error.reasons.filter(isFieldReason) : [];
  return new LeadIntakeError(response.status, code, message, reasons);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isFieldReason(value: unknown): value is FieldReason {
  return isObject(value) && typeof value.field === "string" && typeof value.reason === "string";
}
