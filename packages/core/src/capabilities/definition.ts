import type { z } from "zod";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { InventoryProvider } from "../ports/inventory.js";
import type { AttemptState } from "../ports/capability-records.js";
import type { Storage } from "../ports/storage.js";

/** Planned, in progress or available: per surface, and per capability on each surface. */
export type AvailabilityStatus = "AVAILABLE" | "PLANNED" | "IN_PROGRESS";

/**
 * Who calls a capability. Kept structural: an API-key or OAuth principal with these fields fits,
 * whatever else it carries.
 */
export interface CapabilityPrincipal {
  workspaceId: string;
  scopes: readonly string[];
  /** The user, agent or key acting; recorded on runs and tasks. */
  actorId?: string;
}

/**
 * Where an answer comes from. `freshness` is `live` when the answer was read from its source
 * during this call, and `recorded` when it is the stored outcome of an earlier call replayed for
 * the same idempotency key (then `observedAt` is when that outcome was first observed).
 */
export interface Provenance {
  source: string;
  observedAt: string;
  freshness: "live" | "recorded";
  authoritative: boolean;
  fallbackUsed: boolean;
}

/** What an implementation gets besides its validated input. */
export interface CapabilityContext {
  workspaceId: string;
  principal: CapabilityPrincipal;
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  inventoryProviders: readonly InventoryProvider[];
}

/** An implementation's answer; `provenance` overrides the defaults (source, authoritative, fallbackUsed). */
export interface CapabilityResult<O> {
  output: O;
  provenance?: Partial<Pick<Provenance, "source" | "authoritative" | "fallbackUsed">>;
}

export type IdempotencyRule =
  | { required: false; strategy: "none" }
  | {
      required: true;
      strategy: "logical-attempt";
      /**
       * Called when a retry finds the attempt `unknown` (its holder died or failed mid-way):
       * returns the output if the effect is already visible, or null to apply it again.
       */
      reconcile(context: CapabilityContext, input: never): Promise<unknown | null>;
    };

/** What a capability is and who may call it: written in its definition, published as is. */
export interface CapabilityIdentity {
  /** `<area>.<operation>`, lower case (`quotes.preview`); unique in the registry. */
  name: string;
  /** Semantic version (`1.2.0`, `1.2.0-beta.1`): bump MAJOR when the input or output breaks callers. */
  version: string;
  /** One sentence for the catalog and for agents choosing a tool: what it does, not how. */
  summary: string;
  /** `query` reads and may be retried freely; `command` changes something and passes the policies first. */
  execution: "query" | "command";
  /** `read` or `write`; a `query` must be `read`. Published so agents and policies can tell them apart. */
  riskClass: "read" | "write";
  /** Scopes of the form `<resource>:<action>` (`quotes:read`); at least one. */
  requiredScopes: string[];
  /** `anyOf`: one scope suffices; `allOf`: all are required. */
  scopeMatch: "anyOf" | "allOf";
}

/**
 * One capability, defined once: the catalog descriptor is derived from it, the runtime validates
 * and executes through it. `I` and `O` are zod 4 schemas (a zod 3 schema is refused at
 * registration); use `z.strictObject` for every input object so what is validated is what the
 * catalog publishes (`additionalProperties: false`).
 *
 * @example
 * vitrina.capabilities.register(defineCapability({
 *   name: "quotes.preview", version: "1.0.0", summary: "Previews a quote.",
 *   execution: "query", riskClass: "read", requiredScopes: ["quotes:read"], scopeMatch: "anyOf",
 *   input: z.strictObject({ sku: z.string() }), output: z.strictObject({ total: z.number() }),
 *   idempotency: { required: false, strategy: "none" },
 *   run: async ({ storage, workspaceId }, { sku }) => ({ output: { total: 0 } }),
 * }));
 */
export interface CapabilityDefinition<
  I extends z.ZodType = z.ZodType,
  O extends z.ZodType = z.ZodType,
> extends CapabilityIdentity {
  /** Validates every call's input (422 `invalid_payload` with a reason per field); published as JSON Schema. */
  input: I;
  /** What `run` must return; checked on every call (a mismatch is the capability's bug: 500 `internal`). */
  output: O;
  /** `none` for queries; `logical-attempt` for commands whose effect must happen once per idempotency key. */
  idempotency: IdempotencyRule;
  /** Published availability; default `AVAILABLE`. */
  status?: AvailabilityStatus;
  /** Availability per surface (agent runtime, MCP, REST); default agent runtime available, MCP in progress, REST planned. */
  surfaces?: CapabilitySurfaces;
  /** Still served, but flagged in the catalog so callers move on; default false. */
  deprecated?: boolean;
  /** The implementation: gets the parsed input and the workspace's context; returns the output (and optional provenance). */
  run(context: CapabilityContext, input: z.output<I>): Promise<CapabilityResult<z.input<O>>>;
}

export interface CapabilitySurfaces {
  agentRuntime: AvailabilityStatus;
  mcp: AvailabilityStatus;
  rest: AvailabilityStatus;
}

/** A capability as the public catalog lists it (spec: Capability descriptor). */
export interface CapabilityDescriptor extends CapabilityIdentity {
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  idempotency: { required: boolean; strategy: "none" | "logical-attempt"; states?: AttemptState[] };
  consistency: { level: "best_effort"; maxStalenessMs: null };
  provenance: { source: "service_native"; authoritativeDefault: false; freshnessFields: string[] };
  status: AvailabilityStatus;
  surfaces: CapabilitySurfaces;
  deprecated: boolean;
}

/** Helper that keeps `run`'s input and output typed from the schemas. */
export function defineCapability<I extends z.ZodType, O extends z.ZodType>(
  definition: CapabilityDefinition<I, O>,
): CapabilityDefinition<I, O> {
  return definition;
}
