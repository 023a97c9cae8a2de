import { bytesToHex, concatBytes, hexToBytes, utf8Bytes } from "./encoding.js";

/** The two functions of `node:crypto` used here, typed locally: core builds without Node's types. */
interface NodeCrypto {
  createHmac(algorithm: "sha256", key: Uint8Array): { update(data: Uint8Array): { digest(): Uint8Array } };
  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
}

/**
 * `node:crypto` when the runtime has it (Node ≥ 20.16, Bun and Deno answer
 * `process.getBuiltinModule`), found at run time so core needs no Node-only build entry.
 * Node's HMAC is synchronous and costs ≈5 µs for a lead; WebCrypto goes through the thread pool
 * and costs ≈30–50 µs of CPU (measured in `pnpm bench lead-intake`).
 */
const nodeCrypto = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.("node:crypto") as NodeCrypto | undefined;

/** A key made by `hmacKey`: Node's HMAC over the secret's bytes where it exists. */
export class NodeHmacKey {
  readonly #secret: Uint8Array;
  constructor(secret: string | Uint8Array) {
    this.#secret = typeof secret === "string" ? utf8Bytes(secret) : secret;
  }
  digest(data: Uint8Array): Uint8Array {
    return nodeCrypto!.createHmac("sha256", this.#secret).update(data).digest();
  }
}

/** What `hmacSha256Hex` and `verifyHmacSha256Hex` sign with: a WebCrypto key, or `hmacKey`'s. */
export type HmacKey = CryptoKey | NodeHmacKey;

/**
 * The fastest HMAC-SHA256 key this runtime has: Node's own HMAC, else a WebCrypto key. A string
 * keys with its UTF-8 bytes; bytes (a Standard Webhooks key) are used as they are.
 */
export async function hmacKey(secret: string | Uint8Array): Promise<HmacKey> {
  return nodeCrypto === undefined ? importHmacKey(secret) : new NodeHmacKey(secret);
}

/**
 * HMAC-SHA256 on WebCrypto: runs on Node, Deno, Bun, workers and browsers, and `subtle.verify`
 * compares in constant time, so no hand-written compare sits on the hot path.
 */
export async function importHmacKey(secret: string | Uint8Array): Promise<CryptoKey> {
  const raw = typeof secret === "string" ? utf8Bytes(secret) : new Uint8Array(secret);
  return crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

/** The exact bytes both signature schemes sign: `<timestamp>.<raw body>`. */
export function signedPayload(timestamp: string, rawBody: Uint8Array | string): Uint8Array<ArrayBuffer> {
  const body = typeof rawBody === "string" ? utf8Bytes(rawBody) : rawBody;
  return concatBytes(utf8Bytes(`${timestamp}.`), body);
}

export async function hmacSha256Hex(key: HmacKey, data: Uint8Array<ArrayBuffer>): Promise<string> {
  if (key instanceof NodeHmacKey) return bytesToHex(key.digest(data));
  return bytesToHex(new Uint8Array(await crypto.subtle.sign("HMAC", key, data)));
}

/** True when `signatureHex` is the HMAC of `data`; malformed hex is simply `false`. Constant time. */
export async function verifyHmacSha256Hex(
  key: HmacKey,
  data: Uint8Array<ArrayBuffer>,
  signatureHex: string,
): Promise<boolean> {
  const signature = hexToBytes(signatureHex);
  if (signature === null || signature.length !== 32) return false;
  if (key instanceof NodeHmacKey) return nodeCrypto!.timingSafeEqual(key.digest(data), signature);
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
