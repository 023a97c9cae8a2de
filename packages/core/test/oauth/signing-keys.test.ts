import { createSigningKeys, generateOAuthSigningKey, signAccessToken, verifyAccessToken } from "@vitrina/core/oauth";
import { createManualClock } from "@vitrina/core/testing";
import { describe, expect, it } from "vitest";

const clock = createManualClock();
const claims = {
  issuer: "https://api.example.com",
  audience: "https://api.example.com/mcp",
  userId: "u1",
  workspaceId: "w1",
  clientId: "c1",
  scopes: ["catalog:read"],
  familyId: "f1",
};
const expected = { issuer: claims.issuer, audience: claims.audience };

describe("OAuth signing keys", () => {
  it("lets every process holding the supplied key verify the others' tokens (ES256 and EdDSA)", async () => {
    for (const alg of ["ES256", "EdDSA"] as const) {
      const privateJwk = await generateOAuthSigningKey(alg);
      const token = await signAccessToken(createSigningKeys({ privateJwk }), clock, claims, 60);
      expect(await verifyAccessToken(createSigningKeys({ privateJwk }), clock, token, expected)).toEqual(claims);
    }
  });

  it("refuses tokens of a key it does not hold: generated per process by default", async () => {
    const token = await signAccessToken(createSigningKeys(), clock, claims, 60);
    expect(await verifyAccessToken(createSigningKeys(), clock, token, expected)).toBeNull();
  });

  it("rotates: the new key signs, the previous public key still verifies until removed", async () => {
    const old = await generateOAuthSigningKey();
    const fresh = await generateOAuthSigningKey();
    const oldToken = await signAccessToken(createSigningKeys({ privateJwk: old }), clock, claims, 60);
    const { d: _private, ...oldPublic } = old;
    const rotated = createSigningKeys({ privateJwk: fresh, previousPublicJwks: [oldPublic] });
    expect(await verifyAccessToken(rotated, clock, oldToken, expected)).toEqual(claims);
    expect((await rotated.jwks()).keys.map((k) => k.kid)).toEqual([fresh.kid, old.kid]);
    expect(await verifyAccessToken(createSigningKeys({ privateJwk: fresh }), clock, oldToken, expected)).toBeNull();
  });

  it("checks expiry, issuer and audience", async () => {
    const keys = createSigningKeys();
    const token = await signAccessToken(keys, clock, claims, 60);
    expect(
      await verifyAccessToken(keys, clock, token, { ...expected, audience: "https://other.example.com/mcp" }),
    ).toBeNull();
    expect(await verifyAccessToken(keys, clock, token, { ...expected, issuer: "https://evil.example.com" })).toBeNull();
    const later = createManualClock(clock.now().getTime() + 61_000);
    expect(await verifyAccessToken(keys, later, token, expected)).toBeNull();
    expect(await verifyAccessToken(keys, clock, `${token}x`, expected)).toBeNull();
  });
});
