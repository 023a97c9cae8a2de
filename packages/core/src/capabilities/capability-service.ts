import type { z } from "zod";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { InventoryProvider } from "../ports/inventory.js";
import type { Storage } from "../ports/storage.js";
import { startAgentRun } from "./agent-run.js";
import { BUILTIN_CAPABILITIES, type BuiltinCapabilities } from "./builtin/index.js";
import { buildCatalogDocument, type CatalogDocument } from "./catalog-document.js";
import type { CapabilityDefinition, CapabilityDescriptor, CapabilityPrincipal } from "./definition.js";
import { DEFAULT_ATTEMPT_LEASE_MS } from "./logical-attempt.js";
import type { CapabilityPolicy } from "./policies.js";
import { createCapabilityRegistry } from "./registry.js";
import { inventoryProviderTimeoutMs, withStockDeadline } from "./provider-deadline.js";
import { createCapabilityRuntime, type InvokeOptions, type InvokeResult } from "./runtime.js";
import { wholeNumberOption } from "./whole-number-option.js";

/** A built-in capability's name, or any other registered one (`string`: known only at run time). */
export type CapabilityName = keyof BuiltinCapabilities | (string & {});
type Builtin<N> = N extends keyof BuiltinCapabilities ? BuiltinCapabilities[N] : never;
/** What `invoke` accepts for `N`: the built-in's input type, `unknown` for other capabilities. */
export type CapabilityInput<N extends CapabilityName> = N extends keyof BuiltinCapabilities
  ? z.input<Builtin<N>["input"]>
  : unknown;
/** What `invoke` answers for `N`: the built-in's output type, `unknown` for other capabilities. */
export type CapabilityOutput<N extends CapabilityName> = N extends keyof BuiltinCapabilities
  ? z.output<Builtin<N>["output"]>
  : unknown;

/**
 * `vitrina.capabilities.invoke`: names complete to the built-in ones, whose input and output are
 * typed from their schemas; a capability registered at run time is invoked by its name with
 * `unknown` input and output (validated at run time either way).
 */
export type CapabilityInvoke = <N extends CapabilityName>(
  name: N,
  input: CapabilityInput<N>,
  options: InvokeOptions,
) => Promise<InvokeResult<CapabilityOutput<N>>>;

/** `createVitrina({ capabilities: { … } })`. */
export interface CapabilityOptions {
  /** How long an `executing` attempt is presumed alive before a retry may reconcile it: a positive integer of milliseconds. Default 30000. */
  attemptLeaseMs?: number;
  /** The MCP server's address in the catalog: a path or an absolute URL. Default `/mcp`. */
  mcpUrl?: string;
  /** `max-age` of `GET /v1/capabilities`: an integer ≥ 0 of seconds. Default 300. */
  catalogMaxAgeSeconds?: number;
  /**
   * How long `inventory.check` waits for each inventory provider; one that hasn't answered by then
   * is left out (`fallbackUsed`) and its signal aborted. Default 5000.
   */
  inventoryProviderTimeoutMs?: number;
  /** Extra capabilities, registered after the six built-in ones under the same rules. */
  extra?: CapabilityDefinition[];
  /** Set by `createVitrina` when `rest.enabled`: the REST base address the catalog reports. */
  restUrl?: string;
  /** Set by `createVitrina` when `a2a.enabled`: the A2A endpoint and agent card the catalog reports. */
  a2a?: { url: string; cardUrl: string };
}

export interface CapabilityServiceDeps {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  inventoryProviders: readonly InventoryProvider[];
  policies: readonly CapabilityPolicy[];
  /** `mcpUrl` worked out by `createVitrina` (the option, else the mount's MCP path): capabilities know no surface. */
  options: CapabilityOptions & { mcpUrl: string };
}

/** The registry, the runtime, agent runs and the catalog, wired together (`vitrina.capabilities`). */
export function createCapabilityService(deps: CapabilityServiceDeps) {
  const { storage, clock, ids, options } = deps;
  const providerTimeoutMs = inventoryProviderTimeoutMs(options.inventoryProviderTimeoutMs);
  const attemptLeaseMs = wholeNumberOption("capabilities.attemptLeaseMs", options.attemptLeaseMs, {
    fallback: DEFAULT_ATTEMPT_LEASE_MS,
    least: 1,
    unit: "milliseconds",
  });
  const registry = createCapabilityRegistry([...BUILTIN_CAPABILITIES, ...(options.extra ?? [])]);
  let generatedAt = clock.now().toISOString();
  const runtime = createCapabilityRuntime({
    registry,
    storage,
    clock,
    ids,
    inventoryProviders: deps.inventoryProviders.map((provider) => withStockDeadline(provider, providerTimeoutMs)),
    policies: deps.policies,
    attemptLeaseMs,
  });
  const catalog = (): CatalogDocument =>
    buildCatalogDocument(registry.descriptors(), generatedAt, {
      mcpUrl: options.mcpUrl,
      mcpServerName: "vitrina",
      ...(options.restUrl !== undefined && { rest: { url: options.restUrl } }),
      ...(options.a2a !== undefined && { a2a: options.a2a }),
    });

  return {
    invoke: runtime.invoke as CapabilityInvoke,
    /** The public catalog document, as `GET /v1/capabilities` serves it. */
    catalog,
    /** Adds an embedder's capability; throws `invalid_argument` naming the rule it breaks. */
    register(definition: CapabilityDefinition): CapabilityDescriptor {
      const descriptor = registry.register(definition);
      generatedAt = clock.now().toISOString();
      return structuredClone(descriptor);
    },
    descriptor: (name: string): CapabilityDescriptor | undefined => {
      const found = registry.get(name)?.descriptor;
      return found === undefined ? undefined : structuredClone(found);
    },
    startRun: (run: { principal: CapabilityPrincipal; agentId: string }) =>
      startAgentRun({ runtime, storage, clock, ids }, run),
    /** Changes whenever a capability is registered: the catalog route's ETag input. */
    revision: (): number => registry.revision,
  };
}
export type CapabilityService = ReturnType<typeof createCapabilityService>;
