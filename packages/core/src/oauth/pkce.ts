import { bytesToBase64Url } from "../crypto/encoding.js";
import { timingSafeEqualStrings } from "../crypto/hmac.js";

/** RFC 7636 §4.1: 43–128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** base64url of a SHA-256 digest: exactly 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

export function isS256Challenge(challenge: string): boolean {
  return S256_CHALLENGE.test(challenge);
}

export async function s256Challenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return bytesToBase64Url(new Uint8Array(digest));
}

/** True when `verifier` is well-formed and hashes to `challenge`. */
export async function verifyPkce(verifier: string, challenge: string): Promise<boolean> {
  if (!VERIFIER.test(verifier)) return false;
  return timingSafeEqualStrings(await s256Challenge(verifier), challenge);
}
