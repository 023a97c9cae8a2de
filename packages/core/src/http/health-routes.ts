import type { Clock } from "../ports/clock.js";
import { describeError } from "../logging/loggers.js";
import type { Storage } from "../ports/storage.js";
import type { OutboxWorker } from "../webhooks/outbox-worker.js";
import { jsonResponse } from "./json.js";
import type { Route } from "./router.js";
import { TIMED_OUT, withinDeadline } from "../within-deadline.js";

export interface HealthOptions {
  /** How long `/readyz` waits for the storage's ping before calling it failing. Default 2000. */
  readyTimeoutMs?: number;
  /** Oldest acceptable heartbeat of an in-process worker. Default three of its sweep intervals (90 s). */
  maxHeartbeatAgeMs?: number;
}

export const DEFAULT_READY_TIMEOUT_MS = 2000;

const STATUS_BODY = { type: "object", required: ["status"], properties: { status: { type: "string", enum: ["ok"] } } };
const READY_BODY = {
  type: "object",
  required: ["status", "checks"],
  properties: {
    status: { type: "string", enum: ["ok", "failing"] },
    checks: {
      type: "object",
      required: ["storage", "worker"],
      properties: {
        storage: { type: "string", enum: ["ok", "failing"] },
        worker: { type: "string", enum: ["ok", "stale", "not running"] },
      },
    },
  },
};

type StorageCheck = "ok" | "failing";
type WorkerCheck = "ok" | "stale" | "not running";

/** Resolves "failing" when the ping rejects or outlasts `timeoutMs`; never rejects. */
async function pingWithin(
  storage: Pick<Storage, "ping">,
  timeoutMs: number,
): Promise<{ check: StorageCheck; error?: unknown }> {
  const pinged = storage.ping().then(
    () => ({ check: "ok" as const }),
    (error: unknown) => ({ check: "failing" as const, error }),
  );
  const answer = await withinDeadline(pinged, timeoutMs);
  return answer === TIMED_OUT ? { check: "failing", error: `no answer within ${timeoutMs} ms` } : answer;
}

/** A worker in another process can't be seen from here; with none in this process the check is skipped. */
function workerCheck(workers: readonly OutboxWorker[], now: number, maxAgeMs: number | undefined): WorkerCheck {
  if (workers.length === 0) return "not running";
  const stale = workers.some(
    (worker) => now - worker.lastHeartbeatAt().getTime() > (maxAgeMs ?? 3 * worker.sweepIntervalMs),
  );
  return stale ? "stale" : "ok";
}

/**
 * `GET /healthz` (liveness: the process answers) and `GET /readyz` (readiness: storage answers
 * within a bound and the in-process worker's heartbeat is recent). Bodies carry check names and
 * states only, never error text, hostnames or versions; the cause of a failing check is logged.
 */
export function healthRoutes(deps: {
  storage: Pick<Storage, "ping">;
  clock: Clock;
  workers: () => readonly OutboxWorker[];
  options: HealthOptions;
}): Route[] {
  const timeoutMs = deps.options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  return [
    {
      method: "GET",
      path: "/healthz",
      openapi: {
        tags: ["health"],
        operationId: "healthz",
        summary: "Liveness: the process answers.",
        security: [],
        responses: { "200": { description: "Alive.", schema: STATUS_BODY } },
        // The router refuses a query value holding U+0000 on every route, these included.
        errors: [400],
      },
      handler: async () => jsonResponse({ status: "ok" }),
    },
    {
      method: "GET",
      path: "/readyz",
      openapi: {
        tags: ["health"],
        operationId: "readyz",
        summary: "Readiness: storage answers within the bound, and an in-process worker's heartbeat is recent.",
        security: [],
        responses: {
          "200": { description: "Ready.", schema: READY_BODY },
          "503": {
            description: "Not ready: a check is failing (its cause is logged, never answered).",
            schema: READY_BODY,
          },
        },
        errors: [400],
      },
      async handler(_request, _params, { logger }) {
        const storage = await pingWithin(deps.storage, timeoutMs);
        const worker = workerCheck(deps.workers(), deps.clock.now().getTime(), deps.options.maxHeartbeatAgeMs);
        if (storage.check === "failing")
          logger.warn({ check: "storage", cause: describeError(storage.error) }, "readiness check failing");
        if (worker === "stale")
          logger.warn({ check: "worker" }, "readiness check failing: the outbox worker's heartbeat is stale");
        const ready = storage.check === "ok" && worker !== "stale";
        return jsonResponse(
          { status: ready ? "ok" : "failing", checks: { storage: storage.check, worker } },
          ready ? 200 : 503,
        );
      },
    },
  ];
}
