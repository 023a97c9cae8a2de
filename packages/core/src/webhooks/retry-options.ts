import { VitrinaError, type FieldReason } from "../errors.js";
import { defaultRetryPolicy, type RetryPolicy } from "./retry-policy.js";

/**
 * `webhooks.retry` over the defaults, checked once at start-up. A key left out or given as
 * `undefined` keeps its default, like every other webhook option. Unchecked, a NaN delay (`maxDelayMs:
 * Number(process.env.UNSET)`) made the next attempt an Invalid Date: the POST went out but its
 * outcome was never recorded, the dispatcher rejected (an unhandled rejection in a running worker),
 * and the receiver got the event again after every lease. A negative delay or a jitter of 1 or more
 * retried every second for 24 hours.
 */
export function retryPolicyFrom(options: Partial<RetryPolicy> = {}): RetryPolicy {
  const policy: RetryPolicy = {
    baseDelayMs: options.baseDelayMs ?? defaultRetryPolicy.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? defaultRetryPolicy.maxDelayMs,
    jitter: options.jitter ?? defaultRetryPolicy.jitter,
    random: options.random ?? defaultRetryPolicy.random,
  };
  const reasons: FieldReason[] = [];
  const positive = (value: number) => typeof value === "number" && Number.isFinite(value) && value > 0;
  if (!positive(policy.baseDelayMs))
    reasons.push({ field: "webhooks.retry.baseDelayMs", reason: "must be a positive number of milliseconds" });
  if (!positive(policy.maxDelayMs))
    reasons.push({ field: "webhooks.retry.maxDelayMs", reason: "must be a positive number of milliseconds" });
  if (typeof policy.jitter !== "number" || !(policy.jitter >= 0 && policy.jitter < 1))
    reasons.push({ field: "webhooks.retry.jitter", reason: "must be a fraction from 0 to below 1 (0.2 for ±20 %)" });
  if (typeof policy.random !== "function")
    reasons.push({ field: "webhooks.retry.random", reason: "must be a function returning a number in [0, 1)" });
  if (reasons.length > 0) throw new VitrinaError("invalid_argument", "webhooks.retry is invalid", { reasons });
  return policy;
}
