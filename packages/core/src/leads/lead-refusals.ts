import { isVitrinaError, VitrinaError } from "../errors.js";
import { describeError } from "../logging/loggers.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { Logger } from "../ports/logger.js";
import type { StorageRepositories } from "../ports/storage.js";
import type { RetentionStep } from "../maintenance/retention.js";
import { isStorableText } from "../validation/storable-text.js";
import { CONNECTOR_ID_PATTERN } from "./verify-lead-signature.js";

/** `leadIntake.refusals` of `createVitrina`: the per-connector log of refused leads. */
export interface LeadRefusalOptions {
  /** Refusals kept per connector (a ring: the oldest is overwritten). Default 100; at most 1000. */
  keepPerConnector?: number;
  /** Refusals older than this many days are purged by the retention run; null keeps them (the ring still bounds them). Default 30. */
  retentionDays?: number | null;
  /** Refusals recorded per connector per minute at most (a burst of as many, then evenly); the rest are counted on the next row. Default 30. */
  perConnectorPerMinute?: number;
  /** Refusals recorded per minute across all connectors at most. Default 600. */
  totalPerMinute?: number;
}

export type LeadRefusalSettings = Required<LeadRefusalOptions>;

function positiveInteger(value: number | null, field: string, most: number): void {
  if (value === null && field === "retentionDays") return;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > most) {
    const reason = `must be an integer from 1 to ${most}${field === "retentionDays" ? ", or null" : ""}`;
    throw new VitrinaError("invalid_argument", `leadIntake.refusals.${field} ${reason}`, {
      reasons: [{ field: `leadIntake.refusals.${field}`, reason }],
    });
  }
}

/** The documented defaults, and nonsense refused at start-up naming the option. */
export function resolveLeadRefusals(options: LeadRefusalOptions = {}): LeadRefusalSettings {
  const settings: LeadRefusalSettings = {
    keepPerConnector: options.keepPerConnector ?? 100,
    retentionDays: options.retentionDays === undefined ? 30 : options.retentionDays,
    perConnectorPerMinute: options.perConnectorPerMinute ?? 30,
    totalPerMinute: options.totalPerMinute ?? 600,
  };
  positiveInteger(settings.keepPerConnector, "keepPerConnector", 1000);
  positiveInteger(settings.retentionDays, "retentionDays", 3650);
  positiveInteger(settings.perConnectorPerMinute, "perConnectorPerMinute", 100_000);
  positiveInteger(settings.totalPerMinute, "totalPerMinute", 1_000_000);
  return settings;
}

/** A token bucket on the injected clock: `capacity` at once, refilled evenly over a minute. */
class Bucket {
  private tokens: number;
  private at: number;
  constructor(
    private readonly capacity: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.at = now;
  }
  take(now: number): boolean {
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.at) * this.capacity) / 60_000);
    this.at = Math.max(this.at, now);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** What the intake route knows of a refused request; header values are read here, never stored. */
export interface RefusedRequest {
  connectorIdHeader: string | null;
  timestampHeader: string | null;
  /** Header names as configured, for the fields of a signature refusal. */
  headerNames: { connectorId: string; timestamp: string; signature: string };
  signatureMissing: boolean;
  requestId: string | null;
}

const MAX_FIELDS = 20;
const MAX_FIELD_LENGTH = 200;

/**
 * The paths at fault, as recorded: names only, at most 20 of at most 200 characters. A path can
 * carry a key the sender chose (an unknown qualification field); one that can't be stored is
 * replaced by its parent path, never by its value.
 */
export function recordableFields(error: unknown, request: RefusedRequest): string[] {
  if (!isVitrinaError(error)) return [];
  const names = request.headerNames;
  switch (error.code) {
    case "missing_signature_headers":
      return [
        ...(request.connectorIdHeader === null || request.connectorIdHeader === "" ? [names.connectorId] : []),
        ...(request.timestampHeader === null || request.timestampHeader === "" ? [names.timestamp] : []),
        ...(request.signatureMissing ? [names.signature] : []),
      ];
    case "invalid_timestamp":
    case "timestamp_expired":
    case "timestamp_in_future":
      return [names.timestamp];
    case "invalid_signature":
      return [names.signature];
    case "unsupported_media_type":
      return ["content-type"];
  }
  const fields = error.reasons.map((r) => {
    const field = r.field.length > MAX_FIELD_LENGTH ? `${r.field.slice(0, MAX_FIELD_LENGTH)}…` : r.field;
    if (isStorableText(field)) return field;
    const parent = field.split(".").slice(0, -1).join(".");
    return isStorableText(parent) ? `${parent}.(unprintable key)` : "(unprintable key)";
  });
  return [...new Set(fields)].slice(0, MAX_FIELDS);
}

/** Server time minus the request's timestamp, when it sent one in Unix milliseconds. */
function skewOf(timestamp: string | null, now: number): number | null {
  return timestamp !== null && /^\d{1,16}$/.test(timestamp) ? now - Number(timestamp) : null;
}

/** Failures on our side are not the sender's to fix, and say nothing about its requests. */
const serverSide = (code: string) => code === "internal" || code === "shutting_down" || code.startsWith("storage_");

const BUCKETS_KEPT = 1000;

/**
 * Records refused leads per connector so an integrator can see why theirs were refused (the
 * admin API's `GET /v1/connectors/{id}/refusals`, the console's connector screen).
 *
 * Only a connector id that names an existing connector is recorded (the storage checks, in the
 * same statement as the write), so spraying random ids writes nothing. Writes are bounded twice:
 * each connector's ring holds at most `keepPerConnector` rows, and at most `perConnectorPerMinute`
 * refusals per connector (and `totalPerMinute` overall) are written; those over the rate are only
 * counted, and the next recorded row says how many were skipped. So an attacker spraying unsigned
 * requests at a real connector id costs at most that many single-row writes a minute, and a refusal
 * over the rate costs no storage round trip at all. A failed write is logged and never changes
 * the answer the sender gets.
 */
export function createLeadRefusalRecorder(deps: {
  storage: Pick<StorageRepositories, "leadRefusals">;
  clock: Clock;
  ids: IdGenerator;
  settings: LeadRefusalSettings;
}) {
  const { settings } = deps;
  const total = new Bucket(settings.totalPerMinute, deps.clock.now().getTime());
  const perConnector = new Map<string, { bucket: Bucket; unrecorded: number }>();

  function slotFor(connectorId: string, now: number) {
    let slot = perConnector.get(connectorId);
    if (slot === undefined) {
      if (perConnector.size >= BUCKETS_KEPT) perConnector.delete(perConnector.keys().next().value as string);
      slot = { bucket: new Bucket(settings.perConnectorPerMinute, now), unrecorded: 0 };
      perConnector.set(connectorId, slot);
    }
    return slot;
  }

  return {
    /**
     * Records `error` as a refusal of the connector the request names. Resolves to what happened:
     * `recorded`, `skipped` (no connector id, a server-side failure, or an id that names no
     * connector), or `over_rate`. Never rejects.
     */
    async record(
      error: unknown,
      request: RefusedRequest,
      logger: Logger,
    ): Promise<"recorded" | "skipped" | "over_rate"> {
      const code = isVitrinaError(error) ? error.code : "internal";
      const header = request.connectorIdHeader;
      if (serverSide(code) || header === null || !CONNECTOR_ID_PATTERN.test(header)) return "skipped";
      const connectorId = header.toLowerCase();
      const now = deps.clock.now();
      const slot = slotFor(connectorId, now.getTime());
      if (!slot.bucket.take(now.getTime()) || !total.take(now.getTime())) {
        slot.unrecorded++;
        return "over_rate";
      }
      const unrecordedBefore = slot.unrecorded;
      slot.unrecorded = 0;
      try {
        const recorded = await deps.storage.leadRefusals.record(
          {
            id: deps.ids(),
            connectorId,
            at: now.toISOString(),
            code,
            fields: recordableFields(error, request),
            skewMs: skewOf(request.timestampHeader, now.getTime()),
            requestId: request.requestId,
            unrecordedBefore,
          },
          settings.keepPerConnector,
        );
        // An id no connector has: forget it, so made-up ids don't crowd out the real connectors' buckets.
        if (!recorded) perConnector.delete(connectorId);
        return recorded ? "recorded" : "skipped";
      } catch (failure) {
        slot.unrecorded += unrecordedBefore + 1;
        logger.warn({ connectorId, code, error: describeError(failure) }, "a lead refusal could not be recorded");
        return "skipped";
      }
    },
  };
}
export type LeadRefusalRecorder = ReturnType<typeof createLeadRefusalRecorder>;

/** The retention run's purge of refusals older than `retentionDays` (none when it is null). */
export function leadRefusalRetentionStep(settings: LeadRefusalSettings): RetentionStep[] {
  const days = settings.retentionDays;
  if (days === null) return [];
  return [
    {
      kind: "lead_refusals",
      async run({ storage, now, batchSize, withinBudget }) {
        const before = new Date(now.getTime() - days * 24 * 3600_000).toISOString();
        let removed = 0;
        for (;;) {
          const purged = await storage.leadRefusals.purgeBefore(before, batchSize);
          removed += purged;
          if (purged < batchSize || !withinBudget()) return removed;
        }
      },
    },
  ];
}
