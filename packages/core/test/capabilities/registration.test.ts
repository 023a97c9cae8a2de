import { describe, expect, it } from "vitest";
import { z } from "zod";
// A real zod 3 schema: the zod package keeps its v3 API under this path.
import { z as z3 } from "zod/v3";
import { defineCapability, type CapabilityDefinition } from "@vitrina/core";
import { capabilityHarness } from "./support/harness.js";

const valid = defineCapability({
  name: "quotes.preview",
  version: "1.2.0-beta.1",
  summary: "Previews a quote.",
  execution: "query",
  riskClass: "read",
  requiredScopes: ["quotes:read"],
  scopeMatch: "anyOf",
  input: z.strictObject({ items: z.array(z.strictObject({ sku: z.string(), quantity: z.number().int().min(1) })) }),
  output: z.strictObject({ total: z.number() }),
  idempotency: { required: false, strategy: "none" },
  run: async (_ctx, { items }) => ({ output: { total: items.reduce((sum, i) => sum + i.quantity, 0) } }),
});

describe("registering an embedder's capability", () => {
  it("adds it to the catalog under the same rules, moves generatedAt, and runs it", async () => {
    const { vitrina, clock, principal } = await capabilityHarness();
    clock.advance(60_000);
    const descriptor = vitrina.capabilities.register(valid);
    expect(descriptor).toMatchObject({
      name: "quotes.preview",
      surfaces: { agentRuntime: "AVAILABLE", mcp: "IN_PROGRESS", rest: "PLANNED" },
    });
    expect(descriptor.inputSchema).toMatchObject({
      additionalProperties: false,
      properties: { items: { items: { additionalProperties: false } } },
    });
    const doc = vitrina.capabilities.catalog();
    expect(doc.capabilities.map((c) => c.name).at(-1)).toBe("quotes.preview");
    expect(doc.generatedAt).toBe("2026-03-01T12:01:00.000Z");
    const result = await vitrina.capabilities.invoke(
      "quotes.preview",
      { items: [{ sku: "A", quantity: 2 }] },
      { principal: principal(["quotes:read"]) },
    );
    expect(result.output).toEqual({ total: 2 });
  });

  const refusals: Array<[string, Partial<CapabilityDefinition>, string]> = [
    ["a name without an area", { name: "preview" }, "its name must have the form <area>.<operation>"],
    ["an upper-case name", { name: "Quotes.Preview" }, "<area>.<operation>"],
    ["a duplicate name", { name: "catalog.search" }, "a capability with this name is already registered"],
    ["a non-semver version", { version: "1.0" }, 'version "1.0" is not a semantic version'],
    ["no scopes", { requiredScopes: [] }, "it must require at least one scope"],
    ["a malformed scope", { requiredScopes: ["quotes"] }, 'scope "quotes" must have the form <resource>:<action>'],
    ["an input that is not an object", { input: z.array(z.string()) }, "its input schema must be an object"],
    [
      "an input that accepts unknown keys",
      { input: z.object({ a: z.string() }) },
      "accepts unknown properties at /; use z.strictObject",
    ],
    [
      "a nested open object",
      { input: z.strictObject({ a: z.object({ b: z.string() }) }) },
      "accepts unknown properties at /properties/a",
    ],
    ["a query that writes", { riskClass: "write" }, "a query must have riskClass read"],
    [
      "a zod 3 input schema",
      { input: z3.object({ a: z3.string() }).strict() as never },
      'its input is a zod 3 schema; Vitrina needs zod 4: install zod@^4 and import { z } from "zod"',
    ],
    ["a zod 3 output schema", { output: z3.object({ total: z3.number() }) as never }, "its output is a zod 3 schema"],
    ["an input that is not a schema", { input: { type: "object" } as never }, "its input is not a zod schema"],
  ];
  for (const [what, change, message] of refusals) {
    it(`refuses ${what} with a clear invalid_argument`, async () => {
      const { vitrina } = await capabilityHarness();
      const attempt = () => vitrina.capabilities.register({ ...valid, ...change } as CapabilityDefinition);
      expect(attempt).toThrow(
        expect.objectContaining({ code: "invalid_argument", message: expect.stringContaining(message) }),
      );
      expect(vitrina.capabilities.catalog().capabilities).toHaveLength(6);
    });
  }
});
