import { describe, expectTypeOf, it } from "vitest";
import type { CapabilityInvoke, InvokeResult } from "@vitrina/core";

// Type-level: `tsc` (pnpm typecheck) checks these; vitest only runs the empty bodies.
declare const invoke: CapabilityInvoke;
const options = { principal: { workspaceId: "w", scopes: ["catalog:read"] } };

describe("vitrina.capabilities.invoke types", () => {
  it("types a built-in capability's input and output from its schemas", () => {
    expectTypeOf(invoke("inventory.check", { sku: "MIR-101" }, options)).resolves.toHaveProperty("output").toHaveProperty("found").toEqualTypeOf<boolean>();
    expectTypeOf(invoke("catalog.search", { search: "Mirador" }, options)).resolves.toHaveProperty("output").toBeArray();
    // @ts-expect-error: `search` is a string
    void invoke("catalog.search", { search: 1 }, options);
    // @ts-expect-error: catalog.search's input has no `query`
    void invoke("catalog.search", { query: "x" }, options);
  });

  it("keeps a capability registered at run time callable, with unknown input and output", () => {
    expectTypeOf(invoke("quotes.preview", { anything: true }, options)).resolves.toEqualTypeOf<InvokeResult<unknown>>();
  });
});
