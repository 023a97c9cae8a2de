import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { timingSafeEqualBytes, type HmacSha256 } from "./hmac.js";

function digest(secret: string, timestamp: string, body: string | Uint8Array): Uint8Array {
  return hmac
    .create(sha256, utf8ToBytes(secret))
    .update(utf8ToBytes(`${timestamp}.`))
    .update(typeof body === "string" ? utf8ToBytes(body) : body)
    .digest();
}

/**
 * @noble/hashes: audited pure JS, synchronous in every runtime. WebCrypto would be native but
 * is async-only, which would make `signLead` async for browser and edge callers.
 */
export const nobleHmac: HmacSha256 = {
  digest,
  hex: (secret, timestamp, body) => bytesToHex(digest(secret, timestamp, body)),
  equal: timingSafeEqualBytes,
};
