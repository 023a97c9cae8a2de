import type { z } from "zod";
import { NotFoundError, ValidationError, VitrinaError } from "../errors.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { InventoryProvider } from "../ports/inventory.js";
import type { Storage } from "../ports/storage.js";
import { withSpan } from "../telemetry/tracing.js";
import { parseOrThrow, reasonsFromZod } from "../validation.js";
import { findUnstorableText, isStorableText, UNSTORABLE_TEXT_REASON } from "../validation/storable-text.js";
import type { CapabilityContext, CapabilityPrincipal, CapabilityResult, Provenance } from "./definition.js";
import { recordedOutcome, runLogicalAttempt } from "./logical-attempt.js";
import { enforcePolicies, type CapabilityPolicy } from "./policies.js";
import type { CapabilityRegistry, RegisteredCapability } from "./registry.js";
import { assertScopes } from "../auth/scopes.js";

export interface CapabilityRuntimeDeps {
  registry: CapabilityRegistry;
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  inventoryProviders: readonly InventoryProvider[];
  policies: readonly CapabilityPolicy[];
  attemptLeaseMs: number;
}

export interface InvokeOptions {
  principal: CapabilityPrincipal;
  /** Required by `logical-attempt` capabilities (contacts.update); ignored by queries. */
  idempotencyKey?: string;
  /** Set by agent runs; seen by policies and recorded on their tasks. */
  agentId?: string;
}

/** `output` is typed for the built-in capabilities (see `CapabilityInvoke`), `unknown` for others. */
export interface InvokeResult<O = unknown> {
  output: O;
  provenance: Provenance;
}

function checkedOutput(capability: RegisteredCapability, output: unknown): unknown {
  const parsed = capability.definition.output.safeParse(output);
  if (parsed.success) return parsed.data;
  throw new VitrinaError("internal", `${capability.descriptor.name} returned an output that breaks its own schema`, {
    reasons: reasonsFromZod(parsed.error),
    cause: parsed.error,
  });
}

function requireKey(name: string, key: string | undefined): string {
  if (key !== undefined && key.length > 0 && key.length <= 255) {
    if (isStorableText(key)) return key;
    throw new VitrinaError("invalid_argument", `${name}'s idempotency key ${UNSTORABLE_TEXT_REASON}`, {
      reasons: [{ field: "idempotencyKey", reason: UNSTORABLE_TEXT_REASON }],
    });
  }
  throw new VitrinaError("invalid_argument", `${name} needs an idempotency key (1..255 characters)`, {
    reasons: [{ field: "idempotencyKey", reason: "is required for a logical-attempt capability" }],
  });
}

/**
 * The input, once zod accepts it, must also be text every adapter can store: U+0000 or half of a
 * surrogate pair (a model's output cut mid-emoji) would otherwise reach the adapter inside the
 * command, be refused there without the field's name, and leave its logical attempt `unknown`, so
 * the corrected retry under the same key was refused as `idempotency_key_reused`. REST and MCP
 * bodies are checked when read; this covers `invoke` in code and agent runs.
 */
function parseInput(name: string, capability: RegisteredCapability, input: unknown): unknown {
  const parsed: unknown = parseOrThrow(capability.definition.input as z.ZodType, input, `${name} input`);
  const unstorable = findUnstorableText(parsed);
  if (unstorable !== null) throw new ValidationError(`${name} input is invalid`, [unstorable]);
  return parsed;
}

/**
 * The agent runtime: one `invoke` for every capability. In order: the capability exists
 * (`not_found`), the principal holds its scopes (`insufficient_scope`), the input is valid
 * (`invalid_payload`, every violation with its path, text no adapter can store included), policies allow a command (`policy_blocked`;
 * not asked for a retry of a finished logical attempt, which gets its recorded outcome, nor for a
 * key already used with another input, which gets `idempotency_key_reused`),
 * then it runs, under a logical attempt when its idempotency says so, and the output is checked
 * against the published schema before it is returned with its provenance.
 */
export function createCapabilityRuntime(deps: CapabilityRuntimeDeps) {
  async function invoke(name: string, input: unknown, options: InvokeOptions): Promise<InvokeResult> {
    const capability = deps.registry.get(name);
    if (capability === undefined) throw new NotFoundError(`capability ${name} does not exist`);
    const { definition, descriptor } = capability;
    assertScopes(options.principal, descriptor);
    const parsed = parseInput(name, capability, input);
    const key = definition.idempotency.required ? requireKey(name, options.idempotencyKey) : undefined;
    const policed = descriptor.execution === "command" && deps.policies.length > 0;
    // A retry of a finished attempt gets its recorded outcome before the policies run: they judged
    // the first call, and judging the retry again could block (and open a task for) a change that
    // already happened, where the key promises the first outcome back. A key reused with another
    // input is refused here too (`idempotency_key_reused`): that call never runs, so no policy may
    // count it, block it or open a task for it.
    const replay =
      policed && key !== undefined && definition.idempotency.strategy === "logical-attempt"
        ? await recordedOutcome(deps, {
            workspaceId: options.principal.workspaceId,
            capability: name,
            idempotencyKey: key,
            input: parsed,
          })
        : null;
    if (policed && replay === null) {
      await enforcePolicies(deps, {
        capability: descriptor,
        input: parsed,
        principal: options.principal,
        agentId: options.agentId ?? null,
      });
    }
    const context: CapabilityContext = {
      workspaceId: options.principal.workspaceId,
      principal: options.principal,
      storage: deps.storage,
      clock: deps.clock,
      ids: deps.ids,
      inventoryProviders: deps.inventoryProviders,
    };
    const apply = async (): Promise<CapabilityResult<unknown>> => {
      const result = await definition.run(context, parsed);
      return { ...result, output: checkedOutput(capability, result.output) };
    };

    const idempotency = definition.idempotency;
    const outcome =
      replay ??
      (key === undefined || idempotency.strategy !== "logical-attempt"
        ? { result: await apply(), freshness: "live" as const, observedAt: deps.clock.now().toISOString() }
        : await runLogicalAttempt(
            { storage: deps.storage, clock: deps.clock, ids: deps.ids, leaseMs: deps.attemptLeaseMs },
            {
              workspaceId: context.workspaceId,
              capability: name,
              idempotencyKey: key,
              input: parsed,
              apply,
              async reconcile() {
                const output = await idempotency.reconcile(context, parsed as never);
                return output === null ? null : checkedOutput(capability, output);
              },
            },
          ));
    return {
      output: outcome.result.output,
      provenance: {
        source: "service_native",
        authoritative: false,
        fallbackUsed: false,
        ...outcome.result.provenance,
        observedAt: outcome.observedAt,
        freshness: outcome.freshness,
      },
    };
  }

  return {
    invoke(name: string, input: unknown, options: InvokeOptions): Promise<InvokeResult> {
      // An unknown name is the caller's text: not recorded (it fails `not_found` anyway).
      const known = deps.registry.get(name) !== undefined;
      const attributes = {
        "vitrina.capability.name": known ? name : "_OTHER",
        "vitrina.workspace.id": options.principal.workspaceId,
      };
      return withSpan("vitrina.capability.invoke", attributes, () => invoke(name, input, options));
    },
  };
}
export type CapabilityRuntime = ReturnType<typeof createCapabilityRuntime>;
