import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type CryptoKey,
  type JWK,
  type JWTHeaderParameters,
} from "jose";
import type { OAuthSigningKeyOptions } from "./oauth-options.js";
import { VitrinaError } from "../errors.js";

export type SigningAlgorithm = "ES256" | "EdDSA";
export const SIGNING_ALGORITHMS: SigningAlgorithm[] = ["ES256", "EdDSA"];

interface ActiveKey {
  kid: string;
  alg: SigningAlgorithm;
  privateKey: CryptoKey;
  /** Every public key accepted for verification, by kid (the active one first). */
  publicKeys: Map<string, { alg: SigningAlgorithm; key: CryptoKey; jwk: JWK }>;
}

export interface SigningKeys {
  signingKey(): Promise<{ kid: string; alg: SigningAlgorithm; privateKey: CryptoKey }>;
  /** The key for a token's header, for `jwtVerify`; throws for an unknown `kid`. */
  verificationKey(header: JWTHeaderParameters): Promise<CryptoKey>;
  /** The JWKS document: public keys only. */
  jwks(): Promise<{ keys: JWK[] }>;
}

function algorithmOf(jwk: JWK): SigningAlgorithm {
  if (jwk.kty === "EC" && jwk.crv === "P-256") return "ES256";
  if (jwk.kty === "OKP" && jwk.crv === "Ed25519") return "EdDSA";
  throw new VitrinaError(
    "invalid_argument",
    `OAuth signing key must be EC P-256 (ES256) or OKP Ed25519 (EdDSA), got ${jwk.kty}/${jwk.crv}`,
  );
}

function publicPart(jwk: JWK): JWK {
  const { kty, crv, x, y } = jwk;
  return y === undefined ? { kty, crv, x } : { kty, crv, x, y };
}

async function describePublic(jwk: JWK) {
  const pub = publicPart(jwk);
  const alg = algorithmOf(pub);
  const kid = jwk.kid ?? (await calculateJwkThumbprint(pub));
  return { kid, alg, key: (await importJWK(pub, alg)) as CryptoKey, jwk: { ...pub, kid, alg, use: "sig" } };
}

async function loadSuppliedKeys(options: OAuthSigningKeyOptions): Promise<ActiveKey> {
  const active = await describePublic(options.privateJwk);
  const privateKey = (await importJWK(options.privateJwk, active.alg)) as CryptoKey;
  const publicKeys = new Map([[active.kid, active]]);
  for (const jwk of options.previousPublicJwks ?? []) {
    const previous = await describePublic(jwk);
    publicKeys.set(previous.kid, previous);
  }
  return { kid: active.kid, alg: active.alg, privateKey, publicKeys };
}

/** A fresh pair for this process only; the private half is not extractable. */
async function generateProcessKeys(): Promise<ActiveKey> {
  const pair = await generateKeyPair("ES256");
  const active = await describePublic(await exportJWK(pair.publicKey));
  return { kid: active.kid, alg: active.alg, privateKey: pair.privateKey, publicKeys: new Map([[active.kid, active]]) };
}

/**
 * The signing key of access tokens plus the public keys that still verify. Loaded lazily on first
 * use because key import is async and `createVitrina` is not.
 */
export function createSigningKeys(options?: OAuthSigningKeyOptions): SigningKeys {
  let loading: Promise<ActiveKey> | null = null;
  const load = () => (loading ??= options === undefined ? generateProcessKeys() : loadSuppliedKeys(options));
  return {
    async signingKey() {
      const { kid, alg, privateKey } = await load();
      return { kid, alg, privateKey };
    },
    async verificationKey(header) {
      const found = header.kid === undefined ? undefined : (await load()).publicKeys.get(header.kid);
      if (found === undefined || found.alg !== header.alg)
        throw new VitrinaError("unauthorized", "the token was signed by an unknown key");
      return found.key;
    },
    async jwks() {
      return { keys: [...(await load()).publicKeys.values()].map((k) => k.jwk) };
    },
  };
}

/**
 * A new private signing key as a JWK, to persist in your secret store and pass as
 * `oauth.signingKey.privateJwk` to every process. `node -e` one-liner in the core README.
 */
export async function generateOAuthSigningKey(alg: SigningAlgorithm = "ES256"): Promise<JWK> {
  const pair = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(pair.privateKey);
  return { ...jwk, alg, kid: await calculateJwkThumbprint(publicPart(jwk)) };
}
