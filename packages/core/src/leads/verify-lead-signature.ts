import { hmacKey, signedPayload, verifyHmacSha256Hex, type HmacKey } from "../crypto/hmac.js";
import { SignatureError, VitrinaError } from "../errors.js";
import type { Clock } from "../ports/clock.js";
import type { ConnectorRecord, WorkspaceRecord } from "../ports/records.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { StorageRepositories } from "../ports/storage.js";

/** The three signature headers of one request, as received (any may be missing). */
export interface LeadSignatureHeaders {
  connectorId: string | null;
  timestamp: string | null;
  signature: string | null;
}

/** Who signed a lead: the connector, and its workspace (read with it, in one round trip). */
export interface LeadSigner {
  connector: ConnectorRecord;
  workspace: WorkspaceRecord;
}

export interface LeadSignatureVerifier {
  /**
   * Returns the connector that signed `body` and its workspace, or throws a SignatureError saying
   * what failed. The signer may come from a cache: whoever writes on its behalf must check that the
   * connector is still at `connector.secretVersion` in the same atomic step (registerLead does).
   */
  verify(headers: LeadSignatureHeaders, body: Uint8Array): Promise<LeadSigner>;
  /** Drops what is cached for a connector, so the next `verify` reads it afresh. */
  forget(connectorId: string): void;
}

/** Connector ids are UUIDs; anything else names no connector (and is never looked up or logged). */
export const CONNECTOR_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KEY_CACHE_LIMIT = 1000;

/** Sets `key` (as the newest entry), dropping the oldest entry once the map holds KEY_CACHE_LIMIT. */
function setBounded<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  if (map.size >= KEY_CACHE_LIMIT) map.delete(map.keys().next().value as string);
  map.set(key, value);
}

/**
 * Verifies `HMAC-SHA256(secret, "<timestamp>.<raw body>")` for lead intake. The timestamp must be
 * Unix milliseconds within `toleranceMs` of now in either direction (replay protection).
 * Opened secrets are cached as HMAC keys per (connector, secretVersion), so the hot path skips
 * AES-GCM and key import. The signer (connector and workspace) is cached too, so a lead costs no
 * read: its writes re-check the secret version instead (see `registerNewPerson`). A signature the
 * cached secret refuses is checked again against a fresh read, for a CRM already signing with a
 * secret rotated in another process. Only connectors that exist are cached. This is sound because
 * a rotation is the only change either record can undergo today; a new mutable field that intake
 * reads (a workspace's currency, say) would need the same kind of version check.
 */
export function createLeadSignatureVerifier(deps: {
  connectors: StorageRepositories["connectors"];
  secretBox: SecretBox;
  clock: Clock;
  toleranceMs: number;
  headerNames: { connectorId: string; timestamp: string; signature: string };
}): LeadSignatureVerifier {
  const keys = new Map<string, Promise<HmacKey>>();
  const signers = new Map<string, LeadSigner>();

  function keyFor(connector: ConnectorRecord): Promise<HmacKey> {
    const cacheKey = `${connector.id}:${connector.secretVersion}`;
    let key = keys.get(cacheKey);
    if (key === undefined) {
      // A secret that can't be opened (the secret box key changed) is our fault, not the CRM's: a
      // 500 whose message names the connector, so the log line tells the operator which one.
      key = deps.secretBox.open(connector.sealedSecret).then(hmacKey, (cause: unknown) => {
        throw new VitrinaError(
          "internal",
          `the secret of connector ${connector.id} cannot be opened; an operator must check the secret box key`,
          { cause },
        );
      });
      key.catch(() => keys.delete(cacheKey));
      setBounded(keys, cacheKey, key);
    }
    return key;
  }

  return {
    forget(connectorId) {
      signers.delete(connectorId.toLowerCase());
    },
    async verify(headers, body) {
      const names = deps.headerNames;
      const missing = (
        [
          [headers.connectorId, names.connectorId],
          [headers.timestamp, names.timestamp],
          [headers.signature, names.signature],
        ] as const
      ).filter(([value]) => value === null || value === "");
      if (missing.length > 0) {
        throw new SignatureError(
          "missing_signature_headers",
          `missing header(s): ${missing.map(([, n]) => n).join(", ")}`,
        );
      }
      const timestamp = headers.timestamp!;
      if (!/^\d{1,16}$/.test(timestamp)) {
        throw new SignatureError(
          "invalid_timestamp",
          `${names.timestamp} must be Unix time in milliseconds (digits only)`,
        );
      }
      const now = deps.clock.now().getTime();
      const skew = now - Number(timestamp);
      // Webhooks (and Stripe, and most HMAC schemes) sign in seconds, so a sender copying one of
      // them sends a timestamp a thousand times too small: name that instead of "too old".
      if (skew > deps.toleranceMs && Math.abs(now - Number(timestamp) * 1000) <= deps.toleranceMs) {
        throw new SignatureError(
          "timestamp_expired",
          `${names.timestamp} looks like seconds: send milliseconds (Date.now(), not Date.now() / 1000)`,
        );
      }
      if (skew > deps.toleranceMs) {
        throw new SignatureError(
          "timestamp_expired",
          `${names.timestamp} is older than ${deps.toleranceMs / 60_000} minutes; sign each request when sending it`,
        );
      }
      if (-skew > deps.toleranceMs) {
        throw new SignatureError(
          "timestamp_in_future",
          `${names.timestamp} is more than ${deps.toleranceMs / 60_000} minutes in the future; check the sender's clock`,
        );
      }
      const connectorId = headers.connectorId!;
      if (!CONNECTOR_ID_PATTERN.test(connectorId)) {
        throw new SignatureError("unknown_connector", `${names.connectorId} does not name a connector`);
      }
      const id = connectorId.toLowerCase();
      const signs = async (signer: LeadSigner) =>
        verifyHmacSha256Hex(await keyFor(signer.connector), signedPayload(timestamp, body), headers.signature!);
      const cached = signers.get(id);
      if (cached !== undefined && (await signs(cached))) return cached;
      const signer = await deps.connectors.getWithWorkspace(id);
      if (signer === null) {
        signers.delete(id);
        throw new SignatureError("unknown_connector", `${names.connectorId} does not name a connector`);
      }
      setBounded(signers, id, signer);
      if (!(await signs(signer))) {
        throw new SignatureError(
          "invalid_signature",
          `${names.signature} does not match: sign "<timestamp>.<raw body>" with HMAC-SHA256 and the connector's current secret, hex-encoded`,
        );
      }
      return signer;
    },
  };
}
