import type { Clock } from "../ports/clock.js";
import type { RegistrationRateLimit } from "./oauth-options.js";

export const DEFAULT_REGISTRATION_RATE_LIMIT: RegistrationRateLimit = { burst: 20, perHour: 60 };
/** Buckets kept at most; past it the least recently used is forgotten, so many keys cannot exhaust memory. */
const MAX_BUCKETS = 10_000;

interface Bucket {
  tokens: number;
  at: number;
}

export type RegistrationAdmission = { admitted: true } | { admitted: false; retryAfterSeconds: number };

/**
 * A token bucket per key, in this process's memory: `/register` is open to anyone, and each
 * registration is a stored row. Per process on purpose (no storage round trip); N processes
 * allow N times the rate, which still bounds a flood.
 */
export function registrationLimiter(
  limit: RegistrationRateLimit | false | undefined,
  clock: Clock,
): (request: Request) => RegistrationAdmission {
  if (limit === false) return () => ({ admitted: true });
  const { burst, perHour, key = () => "*" } = limit ?? DEFAULT_REGISTRATION_RATE_LIMIT;
  const perMs = perHour / 3_600_000;
  const buckets = new Map<string, Bucket>();
  return (request) => {
    const now = clock.now().getTime();
    const name = key(request);
    const previous = buckets.get(name) ?? { tokens: burst, at: now };
    const tokens = Math.min(burst, previous.tokens + Math.max(0, now - previous.at) * perMs);
    buckets.delete(name); // re-inserted last: Map order is then least recently used first
    if (tokens < 1) {
      buckets.set(name, { tokens, at: now });
      return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / perMs / 1000)) };
    }
    buckets.set(name, { tokens: tokens - 1, at: now });
    if (buckets.size > MAX_BUCKETS) buckets.delete(buckets.keys().next().value!);
    return { admitted: true };
  };
}
