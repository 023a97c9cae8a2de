/** Records for API keys, webhook subscriptions and the delivery outbox. Timestamps ISO 8601 UTC. */

export interface ApiKeyRecord {
  id: string;
  workspaceId: string;
  name: string;
  /** The first characters of the key (e.g. `vtr_live_AbCd`), safe to show in the console. */
  visiblePrefix: string;
  /** SHA-256 hex of the whole key; the key itself is never stored. */
  hash: string;
  scopes: string[];
  createdBy: string;
  createdAt: string;
  revokedAt: string | null;
}

/**
 * `vitrina`: one `Vitrina-Signature: t=…,v1=<hex>` header (Stripe's scheme). `standard-webhooks`:
 * `webhook-id`, `webhook-timestamp` and `webhook-signature: v1,<base64>` (the Standard Webhooks spec).
 */
export type SignatureScheme = "vitrina" | "standard-webhooks";

export interface WebhookSubscriptionRecord {
  id: string;
  workspaceId: string;
  url: string;
  events: string[];
  /** The signing secret sealed by the SecretBox. */
  sealedSecret: string;
  /** How deliveries are signed; chosen at creation and never changed. */
  signatureScheme: SignatureScheme;
  /**
   * The secret `sealedSecret` replaced in a rolling rotation (sealed), or null. Deliveries are
   * signed with it too until `previousSecretExpiresAt`, so a receiver can switch at its own pace.
   */
  previousSealedSecret: string | null;
  /** When the previous secret stops signing; null when there is none. */
  previousSecretExpiresAt: string | null;
  enabled: boolean;
  /** Why it was disabled (`receiver answered 410 Gone`, `disabled by API`), else null. */
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
  /**
   * Endpoint health, written only by `completeClaims` (storage contract 17); absent reads as null.
   * `failingSince`: when the first attempt of the current unbroken run of failures was made (null
   * while the last attempt succeeded, before any attempt, and after a re-enable).
   */
  failingSince?: string | null;
  /** The newest recorded attempt's time, HTTP status (null when no answer came) and error (null on success). */
  lastAttemptAt?: string | null;
  lastAttemptStatusCode?: number | null;
  lastAttemptError?: string | null;
}

export type DeliveryStatus = "pending" | "succeeded" | "failed";

/** One event to one subscription. Attempts are separate rows. */
export interface WebhookDeliveryRecord {
  id: string;
  workspaceId: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  /** Every attempt so far, resends included: attempts are numbered from it, so numbers stay unique. */
  attemptCount: number;
  /**
   * `attemptCount` when the delivery was last resent (0 until then). The backoff counts only the
   * attempts after it, so a resend starts a fresh schedule (10 s, 20 s, …) rather than going on at
   * the hourly cap its first window reached.
   */
  attemptsBeforeResend: number;
  /** When it is due next; meaningful while `pending`. */
  nextAttemptAt: string;
  /** Retries stop after this (the event's time + 24 h; a resend moves it). */
  retryUntil: string;
  /** A worker's claim: no other worker takes it before `leaseUntil`. */
  leaseUntil: string | null;
  leasedBy: string | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

export interface WebhookAttemptRecord {
  id: string;
  deliveryId: string;
  /** 1-based, in order. */
  number: number;
  attemptedAt: string;
  /** HTTP status, or null when no response came (timeout, refused, SSRF guard). */
  statusCode: number | null;
  durationMs: number;
  /** null on success. */
  error: string | null;
  /**
   * The start of the receiver's answer (at most `RESPONSE_BODY_PREFIX_BYTES` bytes, decoded as UTF-8,
   * U+0000 replaced), so an operator sees what a failing receiver said; null when no answer came.
   * Optional for stores written before it existed: absent reads as null.
   */
  responseBodyPrefix?: string | null;
  /**
   * The request headers the attempt was sent with, signatures redacted (storage contract 17);
   * absent or null for attempts recorded before.
   */
  requestHeaders?: Record<string, string> | null;
}
