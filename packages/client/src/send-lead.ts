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
  headerPrefix?: string;
}

export interface SendLead {
  /**
   * Signs and POSTs a lead, resolving with the typed intake response (a duplicate resolves too,
   * with `duplicate: true`). Rejects with `LeadIntakeError` on non-2xx or a network failure.
   */
  (url: string | URL, options: SendLeadOptions): Promise<LeadIntakeResponse>;
}

export function createSendLead(signLead: SignLead): SendLead {
  return async (url, { connectorId, secret, lead, fetch = globalThis.fetch, timestamp, signal, headerPrefix }) => {
    const { headers, body } = signLead({ connectorId, secret, body: lead, timestamp, headerPrefix });
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, { method: "POST", headers, body, signal });
    } catch (cause) {
      throw networkError(cause, signal, "lead intake unreachable");
    }
    try {
      text = await response.text();
    } catch (cause) {
      // The connection broke after the status line (a reset, a proxy cutting the body): still a
      // network failure the caller retries, not an untyped TypeError("terminated"). A retry is
      // safe: the same source_lead_id answers duplicate: true if the first one was registered.
      throw networkError(cause, signal, `lead intake answered ${response.status} but the body broke off`);
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

/** `network_error` (status 0) for `cause`; the caller's own cancellation is rethrown as is (an AbortError). */
function networkError(cause: unknown, signal: AbortSignal | undefined, what: string): unknown {
  if (signal?.aborted) return cause;
  return new LeadIntakeError(0, "network_error", `${what}: ${String(cause)}`, [], { cause });
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
