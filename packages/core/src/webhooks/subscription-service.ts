import { toPage, wholeList, type ListPage } from "../http/list-page.js";
import { NotFoundError, ConflictError, ValidationError } from "../errors.js";
import { RETRY_WINDOW_MS } from "../events/emit-event.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { Logger } from "../ports/logger.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { Storage } from "../ports/storage.js";
import type { WebhookSubscriptionRecord } from "../ports/webhook-records.js";
import type { DestinationPolicy } from "./ssrf-guard.js";
import { newStandardSecret } from "./signing-schemes.js";
import { parseSubscriptionCreate, parseSubscriptionUpdate, type UrlCheck } from "./subscription-input.js";
import { deliveryView, subscriptionView, type DeliveryView, type SubscriptionView } from "./subscription-views.js";
import { checkedDeliveryFilters, type DeliveryPageOptions } from "./delivery-filters.js";
import { refusalsLogged } from "./endpoint-service.js";

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/**
 * A page size from any caller (the route's `?limit=`, `vitrina deliveries list --limit`, an
 * embedder): 1 to 100, else `invalid_payload` naming `limit`. Checked here, not only in the
 * route, because a limit the storage can't take (1e20 is past PostgreSQL's bigint) would come back
 * as a raw driver error, and a huge valid one would read a subscription's whole history at once.
 */
export function checkedPageSize(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE)
    throw new ValidationError("page options are invalid", [
      { field: "limit", reason: `must be an integer from 1 to ${MAX_PAGE_SIZE}` },
    ]);
  return limit;
}

/** Who asks: the serving request's logger (bound to its `requestId`), so the call's log lines can be correlated. */
export interface SubscriptionCallContext {
  logger?: Logger;
}

/**
 * Webhook subscriptions of one workspace, their delivery history and resend. Callers are already
 * authenticated and scoped (see `http/webhook-routes.ts`); every method is confined to `workspaceId`.
 */
export function createSubscriptionService(deps: {
  storage: Storage;
  secretBox: SecretBox;
  clock: Clock;
  ids: IdGenerator;
  destinations: DestinationPolicy;
  /** The SSRF guard's deadline at subscribe time: the delivery deadline (`webhooks.timeoutMs`). */
  timeoutMs: number;
  /** How long a new secret's predecessor keeps signing when the update doesn't say (`webhooks.secretRotationGraceSeconds`). */
  rotationGraceSeconds: number;
  logger: Logger;
}) {
  const { storage, secretBox, clock, ids } = deps;

  /**
   * The URL check for one request; a DNS timeout is logged with its workspace and subscription, on
   * the request's logger when the caller passed one (the HTTP routes do), so it carries `requestId`.
   */
  const urlCheck = (workspaceId: string, subscriptionId: string | null, call: SubscriptionCallContext): UrlCheck => ({
    destinations: deps.destinations,
    timeoutMs: deps.timeoutMs,
    onTimeout: (host) =>
      (call.logger ?? deps.logger).warn(
        { workspaceId, subscriptionId, host, timeoutMs: deps.timeoutMs },
        "webhook subscription refused: its URL's host did not resolve in time",
      ),
  });

  async function load(workspaceId: string, id: string): Promise<WebhookSubscriptionRecord> {
    const found = await storage.webhookSubscriptions.get(workspaceId, id);
    if (found === null) throw new NotFoundError(`webhook subscription ${id} does not exist`);
    return found;
  }

  return {
    /**
     * A Standard Webhooks subscription created without a secret gets a generated one, returned
     * as `secret` in this answer only: it is sealed at rest and never shown again.
     */
    async create(
      workspaceId: string,
      body: unknown,
      call: SubscriptionCallContext = {},
    ): Promise<SubscriptionView & { secret?: string }> {
      const input = await parseSubscriptionCreate(body, urlCheck(workspaceId, null, call));
      const now = clock.now().toISOString();
      const generated = input.secret === undefined ? newStandardSecret() : null;
      const record: WebhookSubscriptionRecord = {
        id: `whs_${ids().replace(/-/g, "")}`,
        workspaceId,
        url: input.url,
        events: input.events,
        sealedSecret: await secretBox.seal(input.secret ?? generated!),
        signatureScheme: input.signature_scheme,
        previousSealedSecret: null,
        previousSecretExpiresAt: null,
        enabled: true,
        disabledReason: null,
        createdAt: now,
        updatedAt: now,
      };
      await storage.webhookSubscriptions.insert(record);
      return generated === null ? subscriptionView(record) : { ...subscriptionView(record), secret: generated };
    },

    async list(workspaceId: string): Promise<ListPage<SubscriptionView>> {
      const rows = await storage.webhookSubscriptions.listByWorkspace(workspaceId);
      return wholeList(rows.map(subscriptionView));
    },

    async get(workspaceId: string, id: string): Promise<SubscriptionView> {
      return subscriptionView(await load(workspaceId, id));
    },

    /**
     * Re-enabling clears `disabled_reason`. A new secret signs every delivery from now on, and the
     * one it replaces signs them too for `rotation.grace_seconds` (default `rotationGraceSeconds`;
     * 0 switches at once), so the receiver can move to the new secret at its own pace. Only the
     * fields in the body are written, in one statement: a concurrent change of another field (or
     * the worker disabling the subscription after a 410) is never overwritten by a stale copy, and
     * the replaced secret is read in that statement too. The scheme is read first to judge the
     * secret: it never changes, so that read can't go stale.
     */
    async update(
      workspaceId: string,
      id: string,
      body: unknown,
      call: SubscriptionCallContext = {},
    ): Promise<SubscriptionView> {
      const { signatureScheme } = await load(workspaceId, id);
      const patch = await parseSubscriptionUpdate(body, urlCheck(workspaceId, id, call), signatureScheme);
      const now = clock.now();
      const graceSeconds = patch.rotation?.grace_seconds ?? deps.rotationGraceSeconds;
      const updated = await storage.webhookSubscriptions.patch(workspaceId, id, {
        url: patch.url,
        events: patch.events,
        sealedSecret: patch.secret === undefined ? undefined : await secretBox.seal(patch.secret),
        previousSecretExpiresAt:
          patch.secret === undefined || graceSeconds === 0
            ? undefined
            : new Date(now.getTime() + graceSeconds * 1000).toISOString(),
        ...(patch.enabled !== undefined && {
          enabled: patch.enabled,
          disabledReason: patch.enabled ? null : "disabled by API",
        }),
        updatedAt: now.toISOString(),
      });
      if (updated === null) throw new NotFoundError(`webhook subscription ${id} does not exist`);
      return subscriptionView(updated);
    },

    /** Pending deliveries of a deleted subscription end as failed when a worker picks them up. */
    async delete(workspaceId: string, id: string): Promise<void> {
      if (!(await storage.webhookSubscriptions.delete(workspaceId, id))) {
        throw new NotFoundError(`webhook subscription ${id} does not exist`);
      }
    },

    /**
     * A page of the history, newest first, filtered by status, event type or event id.
     * `startingAfter` pages down (older), `endingBefore` up (newer); `has_more` says more lie past
     * the page in the direction asked (Stripe's list semantics).
     */
    async deliveries(workspaceId: string, id: string, options: DeliveryPageOptions): Promise<ListPage<DeliveryView>> {
      const limit = checkedPageSize(options.limit);
      const filters = refusalsLogged(deps.logger, { workspaceId, subscriptionId: id }, "webhook delivery history", () =>
        checkedDeliveryFilters(options),
      );
      await load(workspaceId, id);
      const rows = await storage.webhookDeliveries.listBySubscription(id, { ...filters, limit: limit + 1 });
      if (filters.endingBefore !== undefined) rows.reverse();
      const page = rows.slice(0, limit);
      if (filters.endingBefore !== undefined) page.reverse();
      const attempts = await storage.webhookAttempts.listByDeliveries(page.map((d) => d.id));
      const view = (d: (typeof page)[number]) =>
        deliveryView(
          d,
          attempts.filter((a) => a.deliveryId === d.id),
        );
      // `page` is shown newest first; a newer page (`ending_before`) continues from its first row.
      const more = rows.length > limit ? [...page, rows[limit]!] : page;
      return toPage(more, limit, view, (d) => d.id, filters.endingBefore === undefined ? "last" : "first");
    },

    /** Delivers again: same event id, signed fresh, with a new 24-hour retry window. */
    async resend(workspaceId: string, id: string, deliveryId: string): Promise<DeliveryView> {
      const subscription = await load(workspaceId, id);
      const delivery = await storage.webhookDeliveries.get(workspaceId, deliveryId);
      if (delivery === null || delivery.subscriptionId !== id)
        throw new NotFoundError(`delivery ${deliveryId} does not exist`);
      if (!subscription.enabled) throw new ConflictError("the subscription is disabled; enable it before resending");
      const now = clock.now();
      const retryUntil = new Date(now.getTime() + RETRY_WINDOW_MS).toISOString();
      const next = await storage.webhookDeliveries.reschedule(workspaceId, deliveryId, now.toISOString(), retryUntil);
      if (next === null)
        throw new ConflictError("the delivery is being attempted right now; try again in a few seconds");
      const attempts = await storage.webhookAttempts.listByDeliveries([deliveryId]);
      return deliveryView(next, attempts);
    },
  };
}
export type SubscriptionService = ReturnType<typeof createSubscriptionService>;
