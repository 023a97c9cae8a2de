import { PolicyBlockedError } from "../errors.js";
import { emitEvent } from "../events/emit-event.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { TaskRecord } from "../ports/capability-records.js";
import type { Storage } from "../ports/storage.js";
import type { CapabilityDescriptor, CapabilityPrincipal } from "./definition.js";

/** What a policy sees: the command about to run, with its validated input. */
export interface PolicyContext {
  capability: CapabilityDescriptor;
  input: unknown;
  principal: CapabilityPrincipal;
  /** Set when the call is part of an agent run. */
  agentId: string | null;
}

export type PolicyDecision = "allow" | { block: string };

/**
 * A hook evaluated before every `command` capability, in the order given. The first one that
 * blocks wins: the command does not run, a task is left for a person and `policy.blocked` emitted.
 *
 * ```ts
 * const noVipEdits: CapabilityPolicy = ({ capability, input }) =>
 *   capability.name === "contacts.update" && (input as { tags?: string[] }).tags?.includes("vip") === false
 *     ? { block: "removing the vip tag needs a person" } : "allow";
 * ```
 */
export type CapabilityPolicy = (context: PolicyContext) => PolicyDecision | Promise<PolicyDecision>;

/** Lives in errors.ts with the rest of the family; re-exported here so existing imports keep working. */
export { PolicyBlockedError } from "../errors.js";

/** Returns when every policy allows; otherwise records the task and event in one transaction and throws. */
export async function enforcePolicies(
  deps: { storage: Storage; clock: Clock; ids: IdGenerator; policies: readonly CapabilityPolicy[] },
  context: PolicyContext,
): Promise<void> {
  for (const policy of deps.policies) {
    const decision = await policy(context);
    if (decision === "allow") continue;
    const { principal, capability } = context;
    const task: TaskRecord = {
      id: deps.ids(),
      workspaceId: principal.workspaceId,
      kind: "policy_review",
      status: "open",
      title: `Review blocked ${capability.name}`,
      reason: decision.block,
      capability: capability.name,
      input: context.input,
      actorId: principal.actorId ?? null,
      agentId: context.agentId,
      createdAt: deps.clock.now().toISOString(),
    };
    await deps.storage.transaction(async (tx) => {
      await tx.tasks.insert(task);
      await emitEvent(tx, deps, {
        workspaceId: task.workspaceId,
        type: "policy.blocked",
        data: {
          task_id: task.id,
          capability: task.capability,
          reason: task.reason,
          agent_id: task.agentId,
          actor_id: task.actorId,
        },
      });
    });
    throw new PolicyBlockedError(capability.name, decision.block, task.id);
  }
}
