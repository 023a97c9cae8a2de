import { base64ToBytes, bytesToBase64Url, bytesToHex, utf8Bytes } from "./encoding.js";
import { VitrinaError } from "../errors.js";

import type { SecretBox } from "../ports/secret-box.js";

const VERSION = "v1";

/**
 * AES-256-GCM via WebCrypto. `key` is 32 bytes, or a base64/base64url string of 32 bytes
 * (generate one with `openssl rand -base64 32`). Sealed form: `v1.<iv>.<ciphertext+tag>`.
 */
export function createAesGcmSecretBox(key: Uint8Array | string): SecretBox {
  const raw = typeof key === "string" ? base64ToBytes(key) : key;
  if (raw.length !== 32) {
    throw new VitrinaError("invalid_argument", `secret box key must be 32 bytes, got ${raw.length}`);
  }
  const cryptoKey = crypto.subtle.importKey("raw", raw as Uint8Array<ArrayBuffer>, "AES-GCM", false, [
    "encrypt",
    "decrypt",
  ]);
  // HKDF over the same 32 bytes: a derived key reveals nothing about the sealing key, and a new
  // sealing key gives new derived keys (an erasure's suppression entries then no longer match).
  const hkdfKey = crypto.subtle.importKey("raw", raw as Uint8Array<ArrayBuffer>, "HKDF", false, ["deriveBits"]);
  return {
    async deriveKey(purpose) {
      const bits = await crypto.subtle.deriveBits(
        { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: utf8Bytes(`vitrina:${purpose}`) },
        await hkdfKey,
        256,
      );
      return bytesToHex(new Uint8Array(bits));
    },
    async seal(plaintext) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await cryptoKey, utf8Bytes(plaintext));
      return `${VERSION}.${bytesToBase64Url(iv)}.${bytesToBase64Url(new Uint8Array(sealed))}`;
    },
    async open(sealed) {
      const [version, iv, data] = sealed.split(".");
      if (version !== VERSION || !iv || !data) {
        throw new VitrinaError("internal", "sealed secret has an unknown format");
      }
      try {
        const plain = await crypto.subtle.decrypt(
          { name: "AES-GCM", iv: base64ToBytes(iv) },
          await cryptoKey,
          base64ToBytes(data),
        );
        return new TextDecoder().decode(plain);
      } catch (cause) {
        throw new VitrinaError("internal", "sealed secret could not be opened: wrong secret box key?", { cause });
      }
    },
  };
}
