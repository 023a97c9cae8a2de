import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { hmacSha256Hex, importHmacKey, signedPayload, verifyHmacSha256Hex } from "@vitrina/core/webhooks";

// The same vectors the client's node:crypto and @noble/hashes entries are tested against, computed
// with openssl: the server's WebCrypto verification must agree with every client byte for byte.
const vectors = JSON.parse(
  readFileSync(new URL("../../client/test/signature-vectors.json", import.meta.url), "utf8"),
) as {
  cases: Array<{ name: string; secret: string; timestamp: string; body: string; signature: string }>;
};

describe("core WebCrypto HMAC against the shared signature vectors", () => {
  it.each(vectors.cases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const key = await importHmacKey(c.secret);
    const payload = signedPayload(c.timestamp, c.body);
    expect(await hmacSha256Hex(key, payload)).toBe(c.signature);
    expect(await verifyHmacSha256Hex(key, payload, c.signature)).toBe(true);
    expect(await verifyHmacSha256Hex(key, payload, c.signature.toUpperCase())).toBe(true);
    expect(await verifyHmacSha256Hex(key, signedPayload(c.timestamp, `${c.body} `), c.signature)).toBe(false);
  });
});
