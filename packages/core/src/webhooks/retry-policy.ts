/**
 * When a failed delivery is tried again: exponential backoff from `baseDelayMs`, doubling per
 * attempt up to `maxDelayMs`, with ±`jitter` randomisation so receivers recovering from an outage
 * aren't hit by every retry at once. The last retry is placed exactly at the end of the window.
 */
export interface RetryPolicy {
  baseDelayMs: number;
  maxDelayMs: number;
  /** Fraction of the delay, e.g. 0.2 for ±20 %. */
  jitter: number;
  /** Returns [0, 1); injected so tests get a fixed schedule. */
  random: () => number;
}

export const defaultRetryPolicy: RetryPolicy = {
  baseDelayMs: 10_000,
  maxDelayMs: 60 * 60 * 1000,
  jitter: 0.2,
  random: Math.random,
};

/**
 * The time of the next attempt after `attemptCount` failed attempts in the current retry cycle (since
 * the delivery was created, or since its last resend), or null when the retry window (`retryUntil`)
 * is over and the delivery is failed for good.
 */
export function nextAttemptAt(policy: RetryPolicy, attemptCount: number, now: Date, retryUntil: Date): Date | null {
  if (now.getTime() >= retryUntil.getTime()) return null;
  const exponential = Math.min(policy.baseDelayMs * 2 ** Math.max(0, attemptCount - 1), policy.maxDelayMs);
  const delay = exponential * (1 + policy.jitter * (2 * policy.random() - 1));
  return new Date(Math.min(now.getTime() + Math.max(1000, delay), retryUntil.getTime()));
}
