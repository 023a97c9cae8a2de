import { describe, expectTypeOf, it } from "vitest";
import type { InvokeResult } from "@vitrina/core";
import type { CapabilityInvoke } from "@vitrina/core/capabilities";

// Type-level checks: `tsc` (pnpm typecheck) compiles these functions; they are never called, since
// `invoke` here is only a declared type.
declare const invoke: CapabilityInvoke;
const options = { principal: { workspaceId: "w", scopes: ["catalog:read"] } };

function builtinsAreTyped() {
  expectTypeOf(invoke("inventory.check", { sku: "MIR-101" }, options))
    .resolves.toHaveProperty("output")
    .toHaveProperty("found")
    .toEqualTypeOf<boolean>();
  expectTypeOf(invoke("catalog.search", { search: "Mirador" }, options))
    .resolves.toHaveProperty("output")
    .toBeArray();
  // @ts-expect-error: `search` is a string
  void invoke("catalog.search", { search: 1 }, options);
  // @ts-expect-error: catalog.search's input has no `query`
  void invoke("catalog.search", { query: "x" }, options);
}

function registeredAtRunTimeIsUnknown() {
  expectTypeOf(invoke("quotes.preview", { anything: true }, options)).resolves.toEqualTypeOf<InvokeResult<unknown>>();
}

describe("vitrina.capabilities.invoke types (checked by tsc)", () => {
  it("types a built-in capability's input and output from its schemas", () => {
    expectTypeOf(builtinsAreTyped).toBeFunction();
  });
  it("keeps a capability registered at run time callable, with unknown input and output", () => {
    expectTypeOf(registeredAtRunTimeIsUnknown).toBeFunction();
  });
});
