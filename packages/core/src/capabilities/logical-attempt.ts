import { AttemptInProgressError, ConflictError, IdempotencyKeyReusedError, VitrinaError } from "../errors.js";
import { sha256Hex } from "../crypto/random.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { IdempotencyAttemptRecord } from "../ports/capability-records.js";
import type { Storage } from "../ports/storage.js";
import { canonicalJson } from "./canonical-json.js";
import type { CapabilityResult } from "./definition.js";

export const DEFAULT_ATTEMPT_LEASE_MS = 30_000;

export interface LogicalAttemptDeps {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  leaseMs: number;
}

export interface LogicalAttemptCall {
  workspaceId: string;
  capability: string;
  idempotencyKey: string;
  input: unknown;
  /** Applies the command (output already validated). */
  apply(): Promise<CapabilityResult<unknown>>;
  /** For an `unknown` attempt: the output if the effect is already visible, else null. */
  reconcile(): Promise<unknown | null>;
}

export interface AttemptOutcome {
  result: CapabilityResult<unknown>;
  /** `recorded` when this is the stored outcome of an earlier call with the same key. */
  freshness: "live" | "recorded";
  observedAt: string;
}

/** The stored outcome of a `confirmed` or `failed` attempt, as a replay answers it. */
const replayOf = (attempt: IdempotencyAttemptRecord): AttemptOutcome => ({
  result: { output: attempt.output },
  freshness: "recorded",
  observedAt: attempt.observedAt ?? attempt.updatedAt,
});

const fingerprintOf = (input: unknown) => sha256Hex(canonicalJson(input));

const keyReused = (call: Pick<LogicalAttemptCall, "capability" | "idempotencyKey">) =>
  new IdempotencyKeyReusedError(
    `idempotency key "${call.idempotencyKey}" was already used for ${call.capability} with a different input; use a new key for a new change`,
  );

/**
 * What a call with this key gets before the policies judge it: the recorded outcome when the key's
 * attempt is already `confirmed` or `failed` with this same input; `IdempotencyKeyReusedError`
 * when the key's attempt (in any state) has another input; else null (no attempt yet, or one still
 * running or unknown: the full `runLogicalAttempt` decides those). The policies judged the first
 * call: a retry of a change that happened must not be blocked, and a reused key is the caller's
 * mistake to hear about, not a call for a stateful policy to count or refuse (task, event).
 */
export async function recordedOutcome(
  deps: Pick<LogicalAttemptDeps, "storage">,
  call: Pick<LogicalAttemptCall, "workspaceId" | "capability" | "idempotencyKey" | "input">,
): Promise<AttemptOutcome | null> {
  const attempt = await deps.storage.idempotencyAttempts.get(call.workspaceId, call.capability, call.idempotencyKey);
  if (attempt === null) return null;
  // A key's fingerprint is fixed by the call that created its attempt, so a mismatch is final.
  if (attempt.inputFingerprint !== (await fingerprintOf(call.input))) throw keyReused(call);
  return attempt.state === "confirmed" || attempt.state === "failed" ? replayOf(attempt) : null;
}

/** An output `{ ok: false }` is a definitive failure (nothing applied); anything else confirms. */
const finalState = (output: unknown) =>
  output !== null && typeof output === "object" && (output as { ok?: unknown }).ok === false ? "failed" : "confirmed";

/**
 * Runs one command as a logical attempt keyed by (workspace, capability, idempotency key).
 * Transitions (each a compare-and-set on `version`):
 *   (new) → pending → executing → confirmed | failed
 *   executing → unknown   when `apply` throws (outcome indeterminate) or its lease has expired
 *   unknown → executing   on the next call with the key, which first reconciles, then re-applies
 * A call that finds `confirmed` or `failed` gets the recorded output and applies nothing.
 */
export async function runLogicalAttempt(deps: LogicalAttemptDeps, call: LogicalAttemptCall): Promise<AttemptOutcome> {
  const repo = deps.storage.idempotencyAttempts;
  const fingerprint = await fingerprintOf(call.input);
  const now = () => deps.clock.now().toISOString();
  const move = async (from: IdempotencyAttemptRecord, change: Partial<IdempotencyAttemptRecord>) => {
    const next = { ...from, ...change, version: from.version + 1, updatedAt: now() };
    return (await repo.update(next)) ? next : null;
  };

  const created = now();
  const fresh: IdempotencyAttemptRecord = {
    id: deps.ids(),
    workspaceId: call.workspaceId,
    capability: call.capability,
    idempotencyKey: call.idempotencyKey,
    inputFingerprint: fingerprint,
    state: "pending",
    version: 1,
    leaseExpiresAt: null,
    output: null,
    observedAt: null,
    createdAt: created,
    updatedAt: created,
  };
  let attempt: IdempotencyAttemptRecord | null = (await repo.insertIfNew(fresh)) ? fresh : null;

  // A few rounds at most: each lost compare-and-set means another caller moved the attempt first.
  for (let round = 0; round < 5; round++) {
    attempt ??= await repo.get(call.workspaceId, call.capability, call.idempotencyKey);
    if (attempt === null) throw new VitrinaError("internal", "idempotency attempt vanished while reading it back");
    if (attempt.inputFingerprint !== fingerprint) throw keyReused(call);
    if (attempt.state === "confirmed" || attempt.state === "failed") return replayOf(attempt);
    if (attempt.state === "executing") {
      if (attempt.leaseExpiresAt !== null && attempt.leaseExpiresAt > now()) {
        throw new AttemptInProgressError(
          `${call.capability} with idempotency key "${call.idempotencyKey}" is still executing; retry after ${attempt.leaseExpiresAt}`,
          attempt.leaseExpiresAt,
        );
      }
      attempt = await move(attempt, { state: "unknown", leaseExpiresAt: null });
      continue;
    }
    const wasUnknown = attempt.state === "unknown";
    const lease = new Date(deps.clock.now().getTime() + deps.leaseMs).toISOString();
    const claimed = await move(attempt, { state: "executing", leaseExpiresAt: lease });
    if (claimed === null) {
      attempt = null;
      continue;
    }
    return execute(claimed, wasUnknown);
  }
  throw new ConflictError(`${call.capability} with idempotency key "${call.idempotencyKey}" is contended; retry later`);

  async function execute(claimed: IdempotencyAttemptRecord, wasUnknown: boolean): Promise<AttemptOutcome> {
    let result: CapabilityResult<unknown>;
    try {
      const reconciled = wasUnknown ? await call.reconcile() : null;
      result = reconciled !== null ? { output: reconciled } : await call.apply();
    } catch (error) {
      // The effect may or may not have happened: say so, and let the next retry reconcile.
      await move(claimed, { state: "unknown", leaseExpiresAt: null }).catch(() => null);
      throw error;
    }
    const observedAt = now();
    // If the lease ran out meanwhile and another caller took over, its reconcile sees our effect.
    await move(claimed, { state: finalState(result.output), leaseExpiresAt: null, output: result.output, observedAt });
    return { result, freshness: "live", observedAt };
  }
}
