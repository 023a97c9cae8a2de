import { ConflictError, PolicyBlockedError } from "../errors.js";
import { emitEvent } from "../events/emit-event.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { AgentRunRecord, TraceEntry } from "../ports/capability-records.js";
import type { Storage } from "../ports/storage.js";
import type { CapabilityPrincipal } from "./definition.js";
import type { CapabilityRuntime, InvokeResult } from "./runtime.js";
import { traceCopy } from "./trace-copy.js";
import { toStorableText } from "../validation/storable-text.js";

export interface AgentRunDeps {
  runtime: CapabilityRuntime;
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
}

/** What the trace calls the capability: the event's schema wants a name, so an empty one is named as such. */
const NO_CAPABILITY_NAME = "(no capability name)";
const tracedName = (name: unknown) =>
  typeof name === "string" && name !== "" ? toStorableText(name) : NO_CAPABILITY_NAME;

function traceError(error: unknown): Pick<TraceEntry, "outcome" | "error" | "taskId"> {
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "internal";
  const message = error instanceof Error ? error.message : String(error);
  // A message may quote what the caller sent (an unknown capability's name).
  const traced = { code, message: toStorableText(message) };
  if (error instanceof PolicyBlockedError) return { outcome: "blocked", error: traced, taskId: error.taskId };
  return { outcome: "error", error: traced };
}

/**
 * One agent's unit of work: every `invoke` goes through the runtime and lands in the trace
 * (capability, input, outcome, timing), refusals included. `complete` stores the run and emits
 * `agent.run.completed` with the trace in the same transaction; the run is then closed.
 *
 * ```ts
 * const run = vitrina.capabilities.startRun({ principal, agentId: "sales-bot" });
 * await run.invoke("catalog.search", { search: "2D" });
 * await run.complete();
 * ```
 */
export function startAgentRun(deps: AgentRunDeps, options: { principal: CapabilityPrincipal; agentId: string }) {
  const { principal, agentId } = options;
  const id = deps.ids();
  const startedAt = deps.clock.now().toISOString();
  const trace: TraceEntry[] = [];
  let completed = false;

  return {
    id,
    agentId,
    /** A copy of the calls so far. */
    get trace(): TraceEntry[] {
      return structuredClone(trace);
    },

    async invoke(name: string, input: unknown, callOptions: { idempotencyKey?: string } = {}): Promise<InvokeResult> {
      if (completed) throw new ConflictError(`agent run ${id} is already completed; start a new run`);
      const began = deps.clock.now().toISOString();
      const t0 = performance.now();
      const entry = (rest: Omit<TraceEntry, "capability" | "input" | "startedAt" | "durationMs">): TraceEntry => ({
        capability: tracedName(name),
        input: traceCopy(input),
        startedAt: began,
        durationMs: performance.now() - t0,
        ...rest,
      });
      try {
        const result = await deps.runtime.invoke(name, input, { ...callOptions, principal, agentId });
        trace.push(entry({ outcome: "ok", output: traceCopy(result.output) }));
        return result;
      } catch (error) {
        trace.push(entry(traceError(error)));
        throw error;
      }
    },

    async complete(): Promise<AgentRunRecord> {
      if (completed) throw new ConflictError(`agent run ${id} is already completed; start a new run`);
      const run: AgentRunRecord = {
        id,
        workspaceId: principal.workspaceId,
        agentId,
        actorId: principal.actorId ?? null,
        status: "completed",
        trace: structuredClone(trace),
        startedAt,
        completedAt: deps.clock.now().toISOString(),
      };
      await deps.storage.transaction(async (tx) => {
        await tx.agentRuns.insert(run);
        await emitEvent(tx, deps, {
          workspaceId: run.workspaceId,
          type: "agent.run.completed",
          data: {
            run_id: run.id,
            agent_id: agentId,
            started_at: startedAt,
            completed_at: run.completedAt,
            trace: run.trace,
          },
        });
      });
      completed = true;
      return run;
    },
  };
}
export type AgentRun = ReturnType<typeof startAgentRun>;
