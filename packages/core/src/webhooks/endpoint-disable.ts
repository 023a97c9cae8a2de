import { emitEvent } from "../events/emit-event.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { Logger } from "../ports/logger.js";
import type { Storage } from "../ports/storage.js";
import type { WebhookSubscriptionRecord } from "../ports/webhook-records.js";
import { VitrinaError } from "../errors.js";

/** Svix's default: an endpoint that failed every attempt for five days is disabled. */
export const DEFAULT_AUTO_DISABLE_AFTER_MS = 5 * 24 * 60 * 60 * 1000;

/** `webhooks.autoDisableAfterMs`: a positive whole number of milliseconds, or `false` to never auto-disable. */
export function autoDisableAfterMs(value: number | false | undefined): number | null {
  if (value === undefined) return DEFAULT_AUTO_DISABLE_AFTER_MS;
  if (value === false) return null;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    const reason = "must be a positive whole number of milliseconds, or false to never auto-disable";
    throw new VitrinaError("invalid_argument", `webhooks.autoDisableAfterMs ${reason}`, {
      reasons: [{ field: "webhooks.autoDisableAfterMs", reason }],
    });
  }
  return value;
}

/** `432000000` as `5 days`, `90000` as `90 s`: for the disabled reason a person reads. */
export function spokenDuration(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, "day"],
    [3_600_000, "hour"],
    [60_000, "minute"],
    [1_000, "second"],
  ];
  for (const [size, name] of units)
    if (ms >= size && ms % size === 0) return `${ms / size} ${name}${ms === size ? "" : "s"}`;
  return `${ms} ms`;
}

export interface FailingEndpointCheck {
  subscription: WebhookSubscriptionRecord;
  /** The delivery whose failed attempt triggered the check, for the log. */
  deliveryId: string;
  afterMs: number;
}

/**
 * Disables a subscription whose every attempt has failed for `afterMs`, and emits
 * `webhook_endpoint.disabled` in the same transaction, so a subscriber of that event hears of it
 * exactly once. The disable is one conditional write (`onlyIfEnabled`, `onlyIfFailingSince`)
 * judged on the row as it is when written, never on the copy the claim read: when two workers
 * record failures of the same endpoint at once, the second finds it disabled and writes and emits
 * nothing; a success recorded in between (which clears `failingSince`) keeps it enabled. Resolves
 * true when this call disabled it. Cheap to call on every failure: it writes only when the claim's
 * copy says the endpoint has been failing long enough.
 */
export async function disableIfFailingTooLong(
  deps: { storage: Storage; clock: Clock; ids: IdGenerator; logger: Logger },
  check: FailingEndpointCheck,
): Promise<boolean> {
  const { subscription, afterMs } = check;
  const now = deps.clock.now();
  const cutoff = new Date(now.getTime() - afterMs).toISOString();
  const claimedSince = subscription.failingSince ?? null;
  if (claimedSince === null || claimedSince > cutoff) return false;
  const reason = `failed every delivery attempt for ${spokenDuration(afterMs)}`;
  const disabled = await deps.storage.transaction(async (tx) => {
    const written = await tx.webhookSubscriptions.patch(subscription.workspaceId, subscription.id, {
      enabled: false,
      disabledReason: reason,
      onlyIfEnabled: true,
      onlyIfFailingSince: cutoff,
      updatedAt: now.toISOString(),
    });
    if (written === null) return null;
    await emitEvent(tx, deps, {
      workspaceId: subscription.workspaceId,
      type: "webhook_endpoint.disabled",
      data: {
        subscription_id: subscription.id,
        trigger: "failing",
        disabled_reason: reason,
        failing_since: written.failingSince ?? null,
        disabled_at: now.toISOString(),
      },
    });
    return written;
  });
  if (disabled === null) return false;
  deps.logger.warn(
    {
      workspaceId: subscription.workspaceId,
      subscriptionId: subscription.id,
      deliveryId: check.deliveryId,
      failingSince: disabled.failingSince ?? null,
      autoDisableAfterMs: afterMs,
    },
    "webhook subscription disabled: every attempt failed for the auto-disable period",
  );
  return true;
}
