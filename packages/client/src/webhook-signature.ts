import { WebhookVerificationError } from "./errors.js";
import { decodeSha256Hex, type HmacSha256 } from "./hmac.js";
import { DEFAULT_HEADER_PREFIX } from "./lead-signing.js";
import { matchesStandard, readStandardHeaders, standardKeys } from "./standard-webhooks.js";
import type { WebhookEvent } from "./types.js";

export interface SignWebhookOptions {
  payload: string | Uint8Array;
  secret: string;
  /** Unix seconds; defaults to now. */
  timestamp?: number;
}

/** How a subscription's deliveries are signed: its `signature_scheme`. */
export type WebhookSignatureScheme = "vitrina" | "standard-webhooks";

export interface VerifyWebhookOptions {
  /** The raw request body, exactly as received: never a re-serialised object. */
  payload: string | Uint8Array;
  /**
   * The `Vitrina-Signature` value, or the request's `Headers` (read with `headerPrefix`). With
   * `scheme: "standard-webhooks"`, the request's `Headers` (it reads three of them).
   */
  header: string | null | undefined | { get(name: string): string | null };
  /**
   * One secret, or several while rotating: any match is accepted. For `standard-webhooks`, the
   * `whsec_…` secret Vitrina showed at creation.
   */
  secret: string | readonly string[];
  /**
   * The subscription's `signature_scheme`: `"vitrina"` (default; `Vitrina-Signature`) or
   * `"standard-webhooks"` (`webhook-id`, `webhook-timestamp`, `webhook-signature`). Said, never
   * guessed from the headers: a receiver accepts the one scheme its subscription uses.
   */
  scheme?: WebhookSignatureScheme;
  /**
   * Max clock difference in either direction; default 300. `Infinity` disables the check; NaN or
   * a negative number throws a `TypeError` rather than silently disabling it.
   */
  toleranceSeconds?: number;
  /** Current time in Unix milliseconds (like `Date.now()`, its default). */
  now?: number;
  /** `"Acme"` reads `Acme-Signature` when `header` is a `Headers`. Defaults to `"Vitrina"`. */
  headerPrefix?: string;
}

export interface SignWebhook {
  /** Builds the `Vitrina-Signature` value `t=<seconds>,v1=<hex>` (Stripe's scheme). */
  (options: SignWebhookOptions): string;
}
export interface VerifyWebhook {
  /**
   * Verifies a webhook delivery and returns its parsed event. Throws `WebhookVerificationError`
   * (see its `code`) when the header is missing or malformed, the timestamp is outside the
   * tolerance, no `v1` matches any secret, or the verified body isn't an event envelope.
   *
   * @example
   * const event = verifyWebhook({ payload: await request.text(), header: request.headers, secret });
   */
  (options: VerifyWebhookOptions): WebhookEvent;
}

export function createSignWebhook(hmac: HmacSha256): SignWebhook {
  return ({ payload, secret, timestamp = Math.floor(Date.now() / 1000) }) =>
    `t=${timestamp},v1=${hmac.hex(secret, String(timestamp), payload)}`;
}

export function createVerifyWebhook(hmac: HmacSha256): VerifyWebhook {
  return ({
    payload,
    header,
    secret,
    toleranceSeconds = 300,
    now = Date.now(),
    headerPrefix = DEFAULT_HEADER_PREFIX,
    scheme = "vitrina",
  }) => {
    // NaN (`Number(process.env.TOLERANCE)` when unset) would otherwise turn the replay check off.
    if (!(toleranceSeconds >= 0)) {
      throw new TypeError(`verifyWebhook: toleranceSeconds must be a number ≥ 0 or Infinity, got ${toleranceSeconds}`);
    }
    if (scheme !== "vitrina" && scheme !== "standard-webhooks") {
      throw new TypeError(`verifyWebhook: scheme must be "vitrina" or "standard-webhooks", got ${String(scheme)}`);
    }
    // Cheap check first: a replayed delivery costs no hashing. Written as "not within" so that a
    // NaN (a `now` that isn't a number) refuses instead of passing every comparison.
    const checkTimestamp = (timestamp: string, name: string) => {
      if (!(Math.abs(now / 1000 - Number(timestamp)) <= toleranceSeconds)) {
        throw new WebhookVerificationError("timestamp_outside_tolerance", `${name} timestamp is outside the tolerance`);
      }
    };
    if (scheme === "standard-webhooks") {
      const signed = readStandardHeaders(typeof header === "object" ? header : null);
      checkTimestamp(signed.timestamp, "webhook-timestamp");
      if (!matchesStandard(hmac, standardKeys(signingSecrets(secret)), signed, payload)) {
        throw new WebhookVerificationError("no_matching_signature", "no webhook-signature v1 matches the secret");
      }
      return parseEnvelope(payload);
    }
    const name = `${headerPrefix}-Signature`;
    const value = typeof header === "object" && header !== null ? header.get(name) : header;
    if (!value) throw new WebhookVerificationError("missing_header", `no ${name} header`);
    const { timestamp, signatures } = parseSignatureHeader(value, name);
    checkTimestamp(timestamp, name);
    // Hash once per secret, then compare those bytes against every v1 candidate.
    const matched = signingSecrets(secret).some((key) => {
      const expected = hmac.digest(key, timestamp, payload);
      return signatures.some((candidate) => hmac.equal(expected, candidate));
    });
    if (!matched) throw new WebhookVerificationError("no_matching_signature", `no ${name} v1 matches the secret`);
    return parseEnvelope(payload);
  };
}

/**
 * The secrets worth trying. An empty or missing one is skipped: HMAC with an empty key is a
 * signature anyone can make, and it is what `[CURRENT, PREVIOUS]` holds when PREVIOUS is unset
 * (`undefined`) or set empty in a .env file, or what `"old,".split(",")` yields. Vitrina never
 * signs with one (subscription secrets have at least 24 characters). With nothing left, no
 * signature matches: the delivery is refused, never let through.
 */
function signingSecrets(secret: string | readonly string[] | undefined): readonly string[] {
  if (typeof secret === "string") return secret === "" ? [] : [secret];
  if (!Array.isArray(secret)) return [];
  return (secret as readonly unknown[]).filter((key): key is string => typeof key === "string" && key !== "");
}

/** `t=<digits>,v1=<64 hex>[,v1=…]`; other schemes (v0, a future v2) are ignored for forward compatibility. */
function parseSignatureHeader(value: string, name: string): { timestamp: string; signatures: Uint8Array[] } {
  let timestamp: string | undefined;
  const signatures: Uint8Array[] = [];
  for (const part of value.split(",")) {
    const eq = part.indexOf("=");
    const key = eq > 0 ? part.slice(0, eq) : "";
    const item = part.slice(eq + 1);
    let wellFormed = key !== "";
    if (key === "t") {
      wellFormed = timestamp === undefined && /^\d{1,15}$/.test(item);
      timestamp ??= item;
    } else if (key === "v1") {
      const bytes = decodeSha256Hex(item);
      wellFormed = bytes !== null;
      if (bytes) signatures.push(bytes);
    }
    if (!wellFormed) {
      throw new WebhookVerificationError("malformed_header", `${name} has a malformed part "${part.slice(0, 80)}"`);
    }
  }
  if (timestamp === undefined || signatures.length === 0) {
    throw new WebhookVerificationError("malformed_header", `${name} needs t=<seconds> and at least one v1=<hex>`);
  }
  return { timestamp, signatures };
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function parseEnvelope(payload: string | Uint8Array): WebhookEvent {
  let event: unknown;
  try {
    event = JSON.parse(typeof payload === "string" ? payload : utf8.decode(payload));
  } catch (cause) {
    throw new WebhookVerificationError("invalid_payload", "webhook body is not valid UTF-8 JSON", { cause });
  }
  const e = event as Partial<Record<keyof WebhookEvent, unknown>> | null;
  if (
    typeof e !== "object" ||
    e === null ||
    typeof e.id !== "string" ||
    typeof e.type !== "string" ||
    typeof e.created !== "string" ||
    typeof e.data !== "object" ||
    e.data === null
  ) {
    throw new WebhookVerificationError(
      "invalid_payload",
      "webhook body is not an event envelope { id, type, created, data }",
    );
  }
  // Unknown types pass through: rejecting them would make the sender retry for 24 hours.
  return event as WebhookEvent;
}
