import { hmacKey, verifyHmacSha256Hex, type HmacKey } from "../../crypto/hmac.js";
import { utf8Bytes } from "../../crypto/encoding.js";

/** The provider's signature header: `sha256=` and the lowercase hex HMAC-SHA256 of the body with the app secret. */
export const SIGNATURE_HEADER = "x-hub-signature-256";

/** The hex digest of a well-formed `X-Hub-Signature-256` value, or null. */
export function signatureHexOf(header: string | null): string | null {
  if (header === null) return null;
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim());
  return match === null ? null : match[1]!;
}

/**
 * The body with every non-ASCII character written as `\uXXXX` (UTF-16 units, lowercase hex): the
 * form Meta is known to sign some non-ASCII payloads in ("J'ai mangé" reaches the HMAC as
 * "J'ai mang\u00e9"). Only tried when the raw bytes don't verify.
 */
export function escapeNonAscii(text: string): string {
  return text.replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Whether any byte is outside ASCII (only then is the escaped form worth a second HMAC). */
function hasNonAscii(bytes: Uint8Array): boolean {
  for (const byte of bytes) if (byte > 0x7f) return true;
  return false;
}

/** The key an app secret verifies with. */
export const webhookKey = (appSecret: string): Promise<HmacKey> => hmacKey(appSecret);

/**
 * Whether `signatureHex` is the HMAC of the raw body under `key`, or, for a body with non-ASCII
 * characters, of its escaped form. Both comparisons are constant-time.
 */
export async function verifyWebhookSignature(
  key: HmacKey,
  body: Uint8Array,
  bodyText: string,
  signatureHex: string,
): Promise<boolean> {
  if (await verifyHmacSha256Hex(key, body as Uint8Array<ArrayBuffer>, signatureHex)) return true;
  if (!hasNonAscii(body)) return false;
  return verifyHmacSha256Hex(key, utf8Bytes(escapeNonAscii(bodyText)), signatureHex);
}
