import { memoryStorage } from "@vitrina/adapter-memory";
import type { Storage } from "@vitrina/core";
import type { AttemptState } from "@vitrina/core/storage";

/**
 * Memory storage that can "die" at chosen points, to leave an idempotency attempt the way a
 * crashed process would, and that records every attempt state written, in order.
 */
export function crashableStorage() {
  const inner = memoryStorage();
  const crash = { onApply: false, onAttemptWrite: false as false | AttemptState | "any" };
  const written: AttemptState[] = [];
  const died = () => new Error("process died");
  const storage: Storage = {
    ...inner,
    // The command applies its change in a transaction; crashing here means nothing was applied.
    transaction: (work) => (crash.onApply ? Promise.reject(died()) : inner.transaction(work)),
    idempotencyAttempts: {
      ...inner.idempotencyAttempts,
      async insertIfNew(attempt) {
        const inserted = await inner.idempotencyAttempts.insertIfNew(attempt);
        if (inserted) written.push(attempt.state);
        return inserted;
      },
      async update(next) {
        if (crash.onAttemptWrite === "any" || crash.onAttemptWrite === next.state) throw died();
        const ok = await inner.idempotencyAttempts.update(next);
        if (ok) written.push(next.state);
        return ok;
      },
    },
  };
  return { storage, crash, written, inner };
}
