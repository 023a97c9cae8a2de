import type { ClaimCompletion, WebhookDeliveryRepository } from "../ports/storage.js";
import { nextTurn } from "./next-turn.js";

/** More than this many completions waiting are written in several statements. */
export const MAX_COMPLETIONS_PER_BATCH = 256;

interface Waiting {
  completion: ClaimCompletion;
  resolve: (recorded: boolean) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for finished attempts. A completion with nothing being written is written on the
 * event loop's next turn (see next-turn.ts), with every other completion that finished in this
 * one, so an idle outbox adds no latency to speak of; completions that finish while a write is in
 * flight wait for it and then go together in the next one. Under load the outbox writes one
 * statement per batch instead of one per delivery, and the batch grows with the load by itself (no
 * timer to tune).
 * A failed write rejects every completion in it: each is retried when its lease runs out.
 */
export function createCompletionBatcher(deliveries: Pick<WebhookDeliveryRepository, "completeClaims">) {
  let waiting: Waiting[] = [];
  let writing = false;

  async function drain() {
    writing = true;
    await nextTurn();
    while (waiting.length > 0) {
      const batch = waiting.slice(0, MAX_COMPLETIONS_PER_BATCH);
      waiting = waiting.slice(batch.length);
      try {
        const recorded = await deliveries.completeClaims(batch.map((w) => w.completion));
        batch.forEach((w, i) => w.resolve(recorded[i] === true));
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    writing = false;
  }

  return {
    /** Resolves with whether the completion was recorded (false: the lease was lost). */
    complete(completion: ClaimCompletion): Promise<boolean> {
      return new Promise<boolean>((resolve, reject) => {
        waiting.push({ completion, resolve, reject });
        if (!writing) void drain();
      });
    },
  };
}
