import { bytesToBase64Url } from "./encoding.js";

/**
 * A strong random secret: 32 bytes (256 bits) from the platform CSPRNG, base64url, with a
 * readable prefix so a leaked secret is recognisable in logs and by secret scanners.
 */
export function generateSecret(prefix: string, bytes = 32): string {
  const raw = new Uint8Array(bytes);
  crypto.getRandomValues(raw);
  return `${prefix}${bytesToBase64Url(raw)}`;
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
