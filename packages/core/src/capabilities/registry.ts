import { VitrinaError } from "../errors.js";
import type { CapabilityDefinition, CapabilityDescriptor } from "./definition.js";
import { openObjectPaths, toCatalogJsonSchema } from "./json-schema.js";

const NAME = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/;
// semver.org's own pattern, without build metadata's looser forms.
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
const SCOPE = /^[a-z][a-z0-9_-]*:[a-z][a-z0-9_-]*$/;

export const ATTEMPT_STATES = ["pending", "executing", "confirmed", "failed", "unknown"] as const;

function refuse(name: string, why: string): never {
  throw new VitrinaError("invalid_argument", `capability "${name}" cannot be registered: ${why}`);
}

/**
 * Zod 4 schemas (classic and mini) carry `_zod`; zod 3 ones don't, and would crash later deep in
 * JSON Schema generation (`schema._zod.def`). An app still on zod 3 gets told what to change here.
 */
function refuseUnlessZod4(name: string, schema: unknown, which: "input" | "output"): void {
  if (typeof schema === "object" && schema !== null && "_zod" in schema) return;
  const zod3 = typeof schema === "object" && schema !== null && "_def" in schema;
  refuse(
    name,
    `its ${which} is ${zod3 ? "a zod 3 schema" : "not a zod schema"}; Vitrina needs zod 4: install zod@^4 and import { z } from "zod" (on zod 3.25, import { z } from "zod/v4")`,
  );
}

/** Checks one definition against the catalog's rules and derives its public descriptor. */
function describe(def: CapabilityDefinition): CapabilityDescriptor {
  refuseUnlessZod4(def.name, def.input, "input");
  refuseUnlessZod4(def.name, def.output, "output");
  if (!NAME.test(def.name))
    refuse(def.name, "its name must have the form <area>.<operation> in lower case, e.g. quotes.create");
  if (!SEMVER.test(def.version))
    refuse(def.name, `version "${def.version}" is not a semantic version (MAJOR.MINOR.PATCH)`);
  if (def.requiredScopes.length === 0) refuse(def.name, "it must require at least one scope");
  const badScope = def.requiredScopes.find((s) => !SCOPE.test(s));
  if (badScope !== undefined)
    refuse(def.name, `scope "${badScope}" must have the form <resource>:<action>, e.g. catalog:read`);
  const inputSchema = toCatalogJsonSchema(def.input, "input");
  if (inputSchema.type !== "object") refuse(def.name, "its input schema must be an object (z.strictObject)");
  const open = openObjectPaths(inputSchema);
  if (open.length > 0)
    refuse(def.name, `its input schema accepts unknown properties at ${open.join(", ")}; use z.strictObject`);
  const outputSchema = toCatalogJsonSchema(def.output, "output");
  const openOutput = openObjectPaths(outputSchema);
  if (openOutput.length > 0) refuse(def.name, `its output schema has open objects at ${openOutput.join(", ")}`);
  if (def.execution === "query" && def.riskClass !== "read") refuse(def.name, "a query must have riskClass read");
  return {
    name: def.name,
    version: def.version,
    summary: def.summary,
    execution: def.execution,
    riskClass: def.riskClass,
    requiredScopes: [...def.requiredScopes],
    scopeMatch: def.scopeMatch,
    inputSchema,
    outputSchema,
    idempotency:
      def.idempotency.strategy === "logical-attempt"
        ? { required: true, strategy: "logical-attempt", states: [...ATTEMPT_STATES] }
        : { required: false, strategy: "none" },
    consistency: { level: "best_effort", maxStalenessMs: null },
    provenance: {
      source: "service_native",
      authoritativeDefault: false,
      freshnessFields: ["source", "observedAt", "freshness", "authoritative", "fallbackUsed"],
    },
    status: def.status ?? "AVAILABLE",
    surfaces: def.surfaces ?? { agentRuntime: "AVAILABLE", mcp: "IN_PROGRESS", rest: "PLANNED" },
    deprecated: def.deprecated ?? false,
  };
}

export interface RegisteredCapability {
  definition: CapabilityDefinition;
  descriptor: CapabilityDescriptor;
}

/**
 * The capabilities one Vitrina serves: the six built-in ones plus whatever the embedder registers.
 * Every registration is checked once here; `revision` moves on each change so the catalog
 * document (and its ETag) is rebuilt only when the registry changed.
 */
export function createCapabilityRegistry(initial: readonly CapabilityDefinition[] = []) {
  const entries = new Map<string, RegisteredCapability>();
  let revision = 0;

  function register(definition: CapabilityDefinition): CapabilityDescriptor {
    if (entries.has(definition.name)) refuse(definition.name, "a capability with this name is already registered");
    const descriptor = describe(definition);
    entries.set(definition.name, { definition, descriptor });
    revision++;
    return descriptor;
  }
  for (const definition of initial) register(definition);

  return {
    register,
    get: (name: string): RegisteredCapability | undefined => entries.get(name),
    /** Descriptors in registration order. */
    descriptors: (): CapabilityDescriptor[] => [...entries.values()].map((e) => e.descriptor),
    get revision() {
      return revision;
    },
  };
}
export type CapabilityRegistry = ReturnType<typeof createCapabilityRegistry>;
