import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { timingSafeEqualBytes, type HmacSha256 } from "./hmac.js";

function digestWithKey(key: Uint8Array, prefix: string, body: string | Uint8Array): Uint8Array {
  return hmac
    .create(sha256, key)
    .update(utf8ToBytes(prefix))
    .update(typeof body === "string" ? utf8ToBytes(body) : body)
    .digest();
}

function digest(secret: string, timestamp: string, body: string | Uint8Array): Uint8Array {
  return digestWithKey(utf8ToBytes(secret), `${timestamp}.`, body);
}

/**
 * @noble/hashes: audited pure JS, synchronous in every runtime. WebCrypto would be native but
 * is async-only, which would make `signLead` async for browser and edge callers.
 */
export const nobleHmac: HmacSha256 = {
  digest,
  digestWithKey,
  hex: (secret, timestamp, body) => bytesToHex(digest(secret, timestamp, body)),
  equal: timingSafeEqualBytes,
};
