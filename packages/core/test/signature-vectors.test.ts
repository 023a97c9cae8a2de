import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { hmacKey, hmacSha256Hex, importHmacKey, signedPayload, verifyHmacSha256Hex } from "@vitrina/core/webhooks";

// The same vectors the client's node:crypto and @noble/hashes entries are tested against, computed
// with openssl: the server's WebCrypto verification must agree with every client byte for byte.
const vectors = JSON.parse(
  readFileSync(new URL("../../client/test/signature-vectors.json", import.meta.url), "utf8"),
) as {
  cases: Array<{ name: string; secret: string; timestamp: string; body: string; signature: string }>;
};

// Both key kinds core signs with: WebCrypto (every runtime) and hmacKey's, which is Node's own
// HMAC wherever node:crypto is reachable (here), so the vectors hold on both paths.
const keyKinds = [
  ["WebCrypto", importHmacKey],
  ["hmacKey (node:crypto)", hmacKey],
] as const;

describe.each(keyKinds)("core HMAC (%s) against the shared signature vectors", (_kind, makeKey) => {
  it.each(vectors.cases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const key = await makeKey(c.secret);
    const payload = signedPayload(c.timestamp, c.body);
    expect(await hmacSha256Hex(key, payload)).toBe(c.signature);
    expect(await verifyHmacSha256Hex(key, payload, c.signature)).toBe(true);
    expect(await verifyHmacSha256Hex(key, payload, c.signature.toUpperCase())).toBe(true);
    expect(await verifyHmacSha256Hex(key, signedPayload(c.timestamp, `${c.body} `), c.signature)).toBe(false);
    expect(await verifyHmacSha256Hex(key, payload, c.signature.slice(0, -2))).toBe(false);
    expect(await verifyHmacSha256Hex(key, payload, `${c.signature.slice(0, -1)}g`)).toBe(false);
  });
});

describe("hmacKey", () => {
  it("uses Node's own HMAC on Node (synchronous, no thread pool), not a WebCrypto key", async () => {
    expect(await hmacKey("vtr_cs_secret")).not.toBeInstanceOf(CryptoKey);
    expect(await importHmacKey("vtr_cs_secret")).toBeInstanceOf(CryptoKey);
  });
});
