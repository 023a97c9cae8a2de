import { VitrinaError } from "../errors.js";
import { describeError } from "../logging/loggers.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { Logger } from "../ports/logger.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { Storage } from "../ports/storage.js";
import { createOutboxGauges } from "./outbox-gauges.js";
import { createCommitSignal, notifyOnDeliveryCommit } from "./commit-signal.js";
import { createOutboxDispatcher } from "./outbox-dispatcher.js";
import { startOutboxWorker, type OutboxWorker, type OutboxWorkerOptions } from "./outbox-worker.js";
import { DEFAULT_DELIVERY_TIMEOUT_MS, fetchSender, type WebhookSend } from "./post-webhook.js";
import { type RetryPolicy } from "./retry-policy.js";
import { retryPolicyFrom } from "./retry-options.js";
import type { DestinationPolicy, HostResolver } from "./ssrf-guard.js";
import { DEFAULT_ROTATION_GRACE_SECONDS, MAX_ROTATION_GRACE_SECONDS } from "./subscription-input.js";
import { createSubscriptionService } from "./subscription-service.js";
import { autoDisableAfterMs } from "./endpoint-disable.js";
import { createEndpointService } from "./endpoint-service.js";

export interface WebhookOptions {
  /** Accept `http://` and deliver to loopback receivers (127.0.0.1, ::1, localhost). Demos and tests only. */
  allowInsecureLoopback?: boolean;
  /** Deliver to private and link-local networks too (an ERP on your LAN). Default false. */
  allowPrivateNetworks?: boolean;
  /** DNS for the SSRF guard: `nodeHostResolver` from `@vitrina/http-node`. Without it only IP literals are checked. */
  resolveHost?: HostResolver;
  /** One deadline for a receiver's whole exchange: connect, headers and body. Default 5000 (spec). */
  timeoutMs?: number;
  /** How long a worker's claim is exclusive; must exceed `timeoutMs`. Default 60000. */
  leaseMs?: number;
  /**
   * Requests to receivers one worker has in flight at once; it claims more as slots free up (a slot
   * frees when its attempt is over, while the outcome is recorded). Default 64.
   */
  concurrency?: number;
  /** Of those, at most this many to one subscription. Default half of `concurrency` (32). */
  perSubscriptionConcurrency?: number;
  /** @deprecated The old name of `concurrency`. */
  batchSize?: number;
  retry?: Partial<RetryPolicy>;
  /**
   * The `fetch` deliveries are POSTed with. Default: the global one. Give this or `send`, not both.
   */
  fetch?: typeof fetch;
  /**
   * How a delivery's POST goes out, below `fetch`: `nodeWebhookOptions()` from `@vitrina/http-node`
   * passes one on undici's request API, about a quarter of `fetch`'s CPU per delivery. Give this or
   * `fetch`, not both.
   */
  send?: WebhookSend;
  /**
   * When a subscription's secret changes, how long the replaced secret keeps signing deliveries
   * beside the new one (several `v1` signatures), so receivers switch at their own pace. An update
   * can say otherwise with `rotation.grace_seconds`. Whole seconds from 0 (switch at once) to
   * 604800 (7 days); default 86400 (24 hours).
   */
  secretRotationGraceSeconds?: number;
  /**
   * Disable a subscription whose every delivery attempt has failed for this many milliseconds (its
   * `failing_since` is that old), record why, and emit `webhook_endpoint.disabled`. Re-enabling it
   * starts afresh. Default 432000000 (5 days); `false` never disables on failures (a 410 still does).
   */
  autoDisableAfterMs?: number | false;
  /**
   * Deliveries run in another process (`vitrina worker`): don't warn when a subscription is
   * created and no worker was started in this one. Default false.
   */
  externalWorker?: boolean;
}

export const NO_WORKER_WARNING =
  "a webhook subscription was created but no outbox worker runs in this process, so its deliveries wait: start one with serveVitrina() or startWorker() from @vitrina/http-node, or run `vitrina worker` and set webhooks.externalWorker: true";

function positiveInteger(options: WebhookOptions, field: keyof WebhookOptions, fallback: number): number {
  const value = options[field] ?? fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw new VitrinaError("invalid_argument", `webhooks.${field} must be a positive integer`, {
      reasons: [{ field: `webhooks.${field}`, reason: "must be a positive integer" }],
    });
  }
  return value;
}

function rotationGraceSeconds(options: WebhookOptions): number {
  const value = options.secretRotationGraceSeconds ?? DEFAULT_ROTATION_GRACE_SECONDS;
  if (!Number.isInteger(value) || value < 0 || value > MAX_ROTATION_GRACE_SECONDS) {
    const reason = `must be a whole number of seconds from 0 to ${MAX_ROTATION_GRACE_SECONDS}`;
    throw new VitrinaError("invalid_argument", `webhooks.secretRotationGraceSeconds ${reason}`, {
      reasons: [{ field: "webhooks.secretRotationGraceSeconds", reason }],
    });
  }
  return value;
}

/** The one way deliveries go out: `send`, else `fetch` (default the global one, looked up per call). */
function webhookSender(options: WebhookOptions): WebhookSend {
  if (options.send !== undefined && options.fetch !== undefined) {
    throw new VitrinaError("invalid_argument", "give webhooks.send or webhooks.fetch, not both", {
      reasons: [{ field: "webhooks.fetch", reason: "webhooks.send is set too; send replaces fetch" }],
    });
  }
  return options.send ?? fetchSender(options.fetch ?? ((input, init) => fetch(input, init)));
}

/** Deadline, lease and pool sizes, checked once at start-up rather than failing deliveries later. */
function deliveryLimits(options: WebhookOptions) {
  const timeoutMs = positiveInteger(options, "timeoutMs", DEFAULT_DELIVERY_TIMEOUT_MS);
  const leaseMs = positiveInteger(options, "leaseMs", 60_000);
  // A lease that ran out mid-attempt would let a second worker deliver the same event at once.
  if (leaseMs <= timeoutMs) {
    throw new VitrinaError("invalid_argument", "webhooks.leaseMs must be longer than webhooks.timeoutMs", {
      reasons: [{ field: "webhooks.leaseMs", reason: `must exceed timeoutMs (${timeoutMs})` }],
    });
  }
  // 64, so that one subscription (half of the pool) gets 32 in flight: with 16, a single busy
  // receiver drained at about three quarters of the rate 32 reach, and the other half still keeps
  // 32 slots for every other subscription when one receiver hangs.
  const concurrency = positiveInteger(options, "concurrency", options.batchSize ?? 64);
  const perSubscription = positiveInteger(
    options,
    "perSubscriptionConcurrency",
    Math.max(1, Math.floor(concurrency / 2)),
  );
  return { timeoutMs, leaseMs, concurrency, perSubscriptionConcurrency: Math.min(perSubscription, concurrency) };
}

/** Wires the webhook side: subscription API, dispatcher, worker factory and the commit wake-up. */
export function createOutbox(deps: {
  storage: Storage;
  secretBox: SecretBox;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  headerPrefix: string;
  options: WebhookOptions;
  /**
   * Where the no-worker warning goes; it must be seen even with the default silent logger. Given the
   * logger of the request that created the subscription, a configured logger's line carries its `requestId`.
   */
  warnLoudly: (message: string, requestLogger?: Logger) => void;
}) {
  const { options } = deps;
  const signal = createCommitSignal();
  const storage = notifyOnDeliveryCommit(deps.storage, signal);
  const destinations: DestinationPolicy = {
    allowInsecureLoopback: options.allowInsecureLoopback ?? false,
    allowPrivateNetworks: options.allowPrivateNetworks ?? false,
    resolveHost: options.resolveHost,
  };
  const limits = deliveryLimits(options);
  const disableAfterMs = autoDisableAfterMs(options.autoDisableAfterMs);
  const dispatcher = createOutboxDispatcher({
    storage,
    secretBox: deps.secretBox,
    clock: deps.clock,
    ids: deps.ids,
    logger: deps.logger,
    send: webhookSender(options),
    destinations,
    retry: retryPolicyFrom(options.retry),
    headerPrefix: deps.headerPrefix,
    ...limits,
    autoDisableAfterMs: disableAfterMs,
  });
  const observeOutbox = createOutboxGauges(
    { outboxStats: (now) => deps.storage.webhookDeliveries.outboxStats(now) },
    deps.clock,
  );
  // The workers running in this process, for `/readyz`; a worker in another process is invisible here.
  const running = new Set<OutboxWorker>();
  const subscriptions = createSubscriptionService({
    storage,
    secretBox: deps.secretBox,
    clock: deps.clock,
    ids: deps.ids,
    destinations,
    // The deadline a delivery gives the same DNS check: a name that can't resolve in that time
    // would fail every attempt anyway.
    timeoutMs: limits.timeoutMs,
    rotationGraceSeconds: rotationGraceSeconds(options),
    logger: deps.logger,
  });
  const endpoints = createEndpointService({
    storage,
    clock: deps.clock,
    logger: deps.logger,
    autoDisableAfterMs: disableAfterMs,
  });
  // A subscription answered 201 while nothing will ever deliver to it is the quickstart trap
  // (`serve(handler)` alone): say so once, at the moment it starts to matter.
  let workerStarted = false;
  let warned = options.externalWorker === true;
  return {
    storage,
    dispatcher,
    runningWorkers: (): readonly OutboxWorker[] => [...running],
    subscriptions: {
      ...subscriptions,
      // Health, recovery and one delivery in full (endpoint-service.ts): the same `vitrina.webhooks`.
      ...endpoints,
      async create(...args: Parameters<typeof subscriptions.create>) {
        const created = await subscriptions.create(...args);
        if (!workerStarted && !warned) {
          warned = true;
          deps.warnLoudly(NO_WORKER_WARNING, args[2]?.logger);
        }
        return created;
      },
    },
    /** Starts a delivery loop in this process; stop it with `await worker.stop()`. */
    startWorker(workerOptions: OutboxWorkerOptions = {}): OutboxWorker {
      workerStarted = true;
      const worker = startOutboxWorker(dispatcher, signal, deps.logger, workerOptions, deps.clock);
      const stopObserving = observeOutbox();
      // Commits in other processes (another server, `vitrina worker`) wake this worker too, when
      // the storage can tell; a failure to listen only costs latency: the sweep still runs.
      const unlisten = deps.storage.listenForDeliveries?.(worker.wake).catch((error: unknown) => {
        deps.logger.warn(
          { error: describeError(error) },
          "cannot listen for deliveries from other processes; relying on the sweep",
        );
        return null;
      });
      const handle: OutboxWorker = {
        ...worker,
        async stop() {
          running.delete(handle);
          await (await unlisten)?.().catch(() => {});
          await worker.stop();
          stopObserving();
        },
      };
      running.add(handle);
      return handle;
    },
  };
}
