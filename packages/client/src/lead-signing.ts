import type { HmacSha256 } from "./hmac.js";
import type { LeadPayload } from "./types.js";

export const DEFAULT_HEADER_PREFIX = "Vitrina";

export interface SignLeadOptions {
  /** Connector UUID shown in the console. */
  connectorId: string;
  /** Connector secret (shown once when the connector is created or rotated). */
  secret: string;
  /**
   * The exact string you will send, or a payload object to serialise. Either way, send the
   * returned `body`: the signature covers those bytes and no re-serialisation of them.
   */
  body: string | LeadPayload;
  /** Unix milliseconds; defaults to `Date.now()`. The server rejects requests older than 5 min. */
  timestamp?: number | string;
  /** Rebrands the headers: `"Acme"` gives `X-Acme-Timestamp` etc. Defaults to `"Vitrina"`. */
  headerPrefix?: string;
}

export interface SignedLead {
  headers: Record<string, string>;
  /** Send exactly this string as the request body. */
  body: string;
}

export interface SignLead {
  /**
   * Signs a lead-intake request: HMAC-SHA256 (hex) of `<timestamp>.<body>` keyed with the
   * connector secret. Returns the headers together with the body so the two can't drift apart.
   *
   * @example
   * const { headers, body } = signLead({ connectorId, secret, body: lead });
   * await fetch(url, { method: "POST", headers, body });
   */
  (options: SignLeadOptions): SignedLead;
}

export function createSignLead(hmac: HmacSha256): SignLead {
  return ({ connectorId, secret, body, timestamp = Date.now(), headerPrefix = DEFAULT_HEADER_PREFIX }) => {
    const raw = typeof body === "string" ? body : JSON.stringify(body);
    const stamp = String(timestamp);
    return {
      headers: {
        "Content-Type": "application/json",
        [`X-${headerPrefix}-Connector-Id`]: connectorId,
        [`X-${headerPrefix}-Timestamp`]: stamp,
        [`X-${headerPrefix}-Signature`]: hmac.hex(secret, stamp, raw),
      },
      body: raw,
    };
  };
}
