import { base64ToBytes, utf8Bytes, concatBytes } from "../crypto/encoding.js";
import { hmacKey, hmacSha256Hex, signedPayload, type HmacKey } from "../crypto/hmac.js";
import type { SignatureScheme } from "../ports/webhook-records.js";

export type { SignatureScheme };
export const SIGNATURE_SCHEMES = ["vitrina", "standard-webhooks"] as const satisfies readonly SignatureScheme[];

/** Standard Webhooks secrets: `whsec_` then the base64 of the key bytes. */
export const STANDARD_SECRET_PREFIX = "whsec_";
/** Key sizes the Standard Webhooks spec allows: 24 to 64 bytes. */
export const STANDARD_KEY_BYTES = { min: 24, max: 64 } as const;

/**
 * The key bytes of a `whsec_…` secret, or null when it isn't one (wrong prefix, not canonical
 * base64, or a key outside 24–64 bytes). Standard Webhooks keys with the decoded bytes, unlike
 * Vitrina's scheme, which keys with the secret's UTF-8.
 */
export function standardSecretKey(secret: string): Uint8Array | null {
  if (!secret.startsWith(STANDARD_SECRET_PREFIX)) return null;
  const encoded = secret.slice(STANDARD_SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return null;
  const bytes = base64ToBytes(encoded);
  return bytes.length >= STANDARD_KEY_BYTES.min && bytes.length <= STANDARD_KEY_BYTES.max ? bytes : null;
}

/** A new random Standard Webhooks secret: 32 key bytes, `whsec_` + base64 (what Svix hands out). */
export function newStandardSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `${STANDARD_SECRET_PREFIX}${btoa(binary)}`;
}

/** The HMAC key a subscription's opened secret signs with under its scheme. */
export async function schemeKey(scheme: SignatureScheme, secret: string): Promise<HmacKey> {
  if (scheme === "vitrina") return hmacKey(secret);
  const bytes = standardSecretKey(secret);
  // Checked at create and update; a stored secret that isn't one is a fault on our side.
  if (bytes === null) throw new Error("stored Standard Webhooks secret is not a whsec_ base64 key");
  return hmacKey(bytes);
}

const hexToBase64 = (hex: string): string => {
  let binary = "";
  for (let i = 0; i < hex.length; i += 2) binary += String.fromCharCode(parseInt(hex.slice(i, i + 2), 16));
  return btoa(binary);
};

/**
 * The signature headers of one delivery, signed with every key given: the current secret's first,
 * then the previous one's during a rotation's grace period (one more HMAC, only then).
 *
 * - `vitrina`: `<prefix>-Signature: t=<seconds>,v1=<hex>[,v1=<hex>]`, Stripe's format, over `t.body`.
 * - `standard-webhooks`: `webhook-id` (the event id, the same on every retry), `webhook-timestamp`,
 *   and `webhook-signature: v1,<base64>[ v1,<base64>]` over `id.timestamp.body`.
 */
/** The headers of a delivery signed with Vitrina's scheme, after the embedder's `headerPrefix`. */
export function eventHeaderNames(headerPrefix: string): { signature: string; eventId: string } {
  return { signature: `${headerPrefix}-Signature`, eventId: `${headerPrefix}-Event-Id` };
}

export async function signatureHeaders(request: {
  scheme: SignatureScheme;
  keys: readonly HmacKey[];
  eventId: string;
  unixSeconds: number;
  body: string;
  headerPrefix: string;
}): Promise<Record<string, string>> {
  const t = String(request.unixSeconds);
  // Sequential on purpose: one key outside a rotation, two during one; Node's HMAC is synchronous.
  const signAll = async (data: Uint8Array<ArrayBuffer>, format: (hex: string) => string) => {
    const signatures: string[] = [];
    for (const key of request.keys) signatures.push(format(await hmacSha256Hex(key, data)));
    return signatures;
  };
  if (request.scheme === "vitrina") {
    const v1 = await signAll(signedPayload(t, request.body), (hex) => `v1=${hex}`);
    return { [eventHeaderNames(request.headerPrefix).signature]: `t=${t},${v1.join(",")}` };
  }
  const data = concatBytes(utf8Bytes(`${request.eventId}.${t}.`), utf8Bytes(request.body));
  const v1 = await signAll(data, (hex) => `v1,${hexToBase64(hex)}`);
  return { "webhook-id": request.eventId, "webhook-timestamp": t, "webhook-signature": v1.join(" ") };
}
