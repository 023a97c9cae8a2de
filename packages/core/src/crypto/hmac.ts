import { bytesToHex, concatBytes, hexToBytes, utf8Bytes } from "./encoding.js";

/**
 * HMAC-SHA256 on WebCrypto: native speed on Node, Deno, Bun, workers and browsers, and
 * `subtle.verify` compares in constant time, so no hand-written compare sits on the hot path.
 */
export async function importHmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", utf8Bytes(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
}

/** The exact bytes both signature schemes sign: `<timestamp>.<raw body>`. */
export function signedPayload(timestamp: string, rawBody: Uint8Array | string): Uint8Array<ArrayBuffer> {
  const body = typeof rawBody === "string" ? utf8Bytes(rawBody) : rawBody;
  return concatBytes(utf8Bytes(`${timestamp}.`), body);
}

export async function hmacSha256Hex(key: CryptoKey, data: Uint8Array<ArrayBuffer>): Promise<string> {
  return bytesToHex(new Uint8Array(await crypto.subtle.sign("HMAC", key, data)));
}

/** True when `signatureHex` is the HMAC of `data`; malformed hex is simply `false`. Constant time. */
export async function verifyHmacSha256Hex(
  key: CryptoKey,
  data: Uint8Array<ArrayBuffer>,
  signatureHex: string,
): Promise<boolean> {
  const signature = hexToBytes(signatureHex);
  if (signature === null || signature.length !== 32) return false;
  return crypto.subtle.verify("HMAC", key, signature as Uint8Array<ArrayBuffer>, data);
}

/** Constant-time equality of two strings (length leaks, content doesn't). */
export function timingSafeEqualStrings(a: string, b: string): boolean {
  const left = utf8Bytes(a);
  const right = utf8Bytes(b);
  let diff = left.length ^ right.length;
  const length = Math.max(left.length, right.length);
  for (let i = 0; i < length; i++) diff |= (left[i] ?? 0) ^ (right[i] ?? 0);
  return diff === 0;
}
