/**
 * The one seam between the two entries: everything else is shared code parametrised by an
 * `HmacSha256`. `node.ts` plugs in node:crypto (native), `index.ts` plugs in @noble/hashes
 * (synchronous everywhere, unlike WebCrypto, so `signLead` can stay synchronous).
 *
 * Both signature schemes sign the same bytes: UTF-8 `<timestamp>.` followed by the raw body.
 */
export interface HmacSha256 {
  /** Raw 32-byte HMAC-SHA256 of `<timestamp>.<body>` keyed with the UTF-8 secret. */
  digest(secret: string, timestamp: string, body: string | Uint8Array): Uint8Array;
  /** The same digest as lowercase hex (native hex encoding is faster on Node). */
  hex(secret: string, timestamp: string, body: string | Uint8Array): string;
  /**
   * Raw HMAC-SHA256 of UTF-8 `prefix` followed by `body`, keyed with the key bytes as they are
   * (Standard Webhooks: the base64-decoded secret, over `<id>.<timestamp>.<body>`).
   */
  digestWithKey(key: Uint8Array, prefix: string, body: string | Uint8Array): Uint8Array;
  /** Constant-time equality; `false` for different lengths. */
  equal(a: Uint8Array, b: Uint8Array): boolean;
}

/** Portable constant-time compare: time depends on the length only, never on the content. */
export function timingSafeEqualBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

// Char code -> nibble, -1 for non-hex. A table beats a regex plus parseInt on this hot path.
const NIBBLE = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) NIBBLE[48 + i] = i;
for (let i = 0; i < 6; i++) NIBBLE[65 + i] = NIBBLE[97 + i] = 10 + i;

/** Decodes exactly 64 hex chars (a SHA-256 digest) into bytes; `null` for anything else. */
export function decodeSha256Hex(hex: string): Uint8Array | null {
  if (hex.length !== 64) return null;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) {
    const hi = NIBBLE[hex.charCodeAt(i * 2)] ?? -1;
    const lo = NIBBLE[hex.charCodeAt(i * 2 + 1)] ?? -1;
    if (hi < 0 || lo < 0) return null;
    out[i] = (hi << 4) | lo;
  }
  return out;
}
