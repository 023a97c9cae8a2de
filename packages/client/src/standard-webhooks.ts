import { WebhookVerificationError } from "./errors.js";
import type { HmacSha256 } from "./hmac.js";

/** The three headers a `standard-webhooks` delivery carries (the Standard Webhooks spec). */
export const STANDARD_HEADERS = {
  id: "webhook-id",
  timestamp: "webhook-timestamp",
  signature: "webhook-signature",
} as const;

const SECRET_PREFIX = "whsec_";

/** Standard base64 to bytes with `atob` (browsers, Node ≥ 16, Deno, Bun): no `node:` import. */
function base64Bytes(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/**
 * The key bytes of a `whsec_<base64>` secret; an empty or malformed one is skipped (an empty key
 * is a signature anyone can make), as with Vitrina's scheme. A secret without the prefix is read
 * as bare base64, as the Standard Webhooks libraries do.
 */
export function standardKeys(secrets: readonly string[]): Uint8Array[] {
  return secrets.flatMap((secret) => {
    const bytes = base64Bytes(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
    return bytes === null || bytes.length === 0 ? [] : [bytes];
  });
}

export interface StandardSignature {
  id: string;
  timestamp: string;
  signatures: Uint8Array[];
}

/**
 * The three headers of a delivery, or `WebhookVerificationError`. `webhook-signature` is a
 * space-separated list of `<version>,<base64>`; only `v1` (HMAC-SHA256) counts, others (a future
 * version, `v1a` asymmetric signatures) are ignored, as the spec asks.
 */
export function readStandardHeaders(
  headers: { get(name: string): string | null } | null | undefined,
): StandardSignature {
  const get = (name: string) => (typeof headers?.get === "function" ? headers.get(name) : null);
  const id = get(STANDARD_HEADERS.id);
  const timestamp = get(STANDARD_HEADERS.timestamp);
  const signature = get(STANDARD_HEADERS.signature);
  if (!id || !timestamp || !signature) {
    const missing = Object.values(STANDARD_HEADERS).filter((name) => !get(name));
    throw new WebhookVerificationError("missing_header", `no ${missing.join(", ")} header`);
  }
  if (!/^\d{1,15}$/.test(timestamp)) {
    throw new WebhookVerificationError("malformed_header", `${STANDARD_HEADERS.timestamp} is not Unix seconds`);
  }
  const signatures: Uint8Array[] = [];
  for (const part of signature.split(" ")) {
    const comma = part.indexOf(",");
    if (comma <= 0) {
      throw new WebhookVerificationError(
        "malformed_header",
        `${STANDARD_HEADERS.signature} has a malformed part "${part.slice(0, 80)}"`,
      );
    }
    if (part.slice(0, comma) !== "v1") continue;
    const bytes = base64Bytes(part.slice(comma + 1));
    if (bytes === null || bytes.length !== 32) {
      throw new WebhookVerificationError(
        "malformed_header",
        `${STANDARD_HEADERS.signature} has a malformed v1 "${part.slice(0, 80)}"`,
      );
    }
    signatures.push(bytes);
  }
  if (signatures.length === 0) {
    throw new WebhookVerificationError(
      "malformed_header",
      `${STANDARD_HEADERS.signature} has no v1,<base64> signature`,
    );
  }
  return { id, timestamp, signatures };
}

/** True when some key's HMAC of `<id>.<timestamp>.<body>` equals some candidate (each key hashed once). */
export function matchesStandard(
  hmac: HmacSha256,
  keys: readonly Uint8Array[],
  { id, timestamp, signatures }: StandardSignature,
  payload: string | Uint8Array,
): boolean {
  return keys.some((key) => {
    const expected = hmac.digestWithKey(key, `${id}.${timestamp}.`, payload);
    return signatures.some((candidate) => hmac.equal(expected, candidate));
  });
}
