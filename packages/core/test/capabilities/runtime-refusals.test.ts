import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineCapability } from "@vitrina/core";
import { capabilityHarness } from "./support/harness.js";

describe("invoke refuses before running", () => {
  it("an unknown capability with not_found", async () => {
    const { invoke } = await capabilityHarness();
    await expect(invoke("catalog.browse", {})).rejects.toMatchObject({
      code: "not_found",
      message: "capability catalog.browse does not exist",
    });
  });

  it("anyOf: one of the scopes suffices; none held names every missing one", async () => {
    const { vitrina, principal } = await capabilityHarness();
    vitrina.capabilities.register(
      defineCapability({
        name: "reports.read",
        version: "1.0.0",
        summary: "Reads a report.",
        execution: "query",
        riskClass: "read",
        requiredScopes: ["reports:read", "admin:all"],
        scopeMatch: "anyOf",
        input: z.strictObject({}),
        output: z.strictObject({ ok: z.boolean() }),
        idempotency: { required: false, strategy: "none" },
        run: async () => ({ output: { ok: true } }),
      }),
    );
    const call = (scopes: string[]) =>
      vitrina.capabilities.invoke("reports.read", {}, { principal: principal(scopes) });
    await expect(call(["admin:all"])).resolves.toMatchObject({ output: { ok: true } });
    await expect(call(["catalog:read"])).rejects.toMatchObject({
      code: "insufficient_scope",
      message: "reports.read needs one of: reports:read, admin:all; missing: reports:read, admin:all",
    });
    await expect(
      vitrina.capabilities.invoke("catalog.search", {}, { principal: principal(["customers:read"]) }),
    ).rejects.toMatchObject({
      code: "insufficient_scope",
      reasons: [{ field: "scopes", reason: "missing catalog:read" }],
    });
  });

  it("allOf: every scope is needed and only the missing ones are named", async () => {
    const { vitrina, principal } = await capabilityHarness();
    vitrina.capabilities.register(
      defineCapability({
        name: "quotes.approve",
        version: "1.0.0",
        summary: "Approves a quote.",
        execution: "command",
        riskClass: "write",
        requiredScopes: ["quotes:write", "quotes:approve"],
        scopeMatch: "allOf",
        input: z.strictObject({}),
        output: z.strictObject({ ok: z.boolean() }),
        idempotency: { required: false, strategy: "none" },
        run: async () => ({ output: { ok: true } }),
      }),
    );
    const call = (scopes: string[]) =>
      vitrina.capabilities.invoke("quotes.approve", {}, { principal: principal(scopes) });
    await expect(call(["quotes:write"])).rejects.toMatchObject({
      code: "insufficient_scope",
      reasons: [{ field: "scopes", reason: "missing quotes:approve" }],
    });
    await expect(call(["quotes:write", "quotes:approve"])).resolves.toMatchObject({ output: { ok: true } });
    await expect(
      vitrina.capabilities.invoke(
        "contacts.update",
        { contact_id: "x" },
        { principal: principal(["customers:read"]), idempotencyKey: "k" },
      ),
    ).rejects.toMatchObject({
      code: "insufficient_scope",
      message: "contacts.update needs all of: customers:write; missing: customers:write",
    });
  });

  it("invalid input with every violation and its path", async () => {
    const { invoke } = await capabilityHarness();
    const error = await invoke(
      "contacts.update",
      { contact_id: "", phone: "555", email: "nope", tags: ["ok", 3], extra: 1 },
      "k1",
    ).catch((e) => e);
    expect(error).toMatchObject({ code: "invalid_payload", message: "contacts.update input is invalid" });
    expect(error.reasons.map((r: { field: string }) => r.field).sort()).toEqual([
      "contact_id",
      "email",
      "extra",
      "phone",
      "tags.1",
    ]);
    await expect(invoke("contacts.get", {})).rejects.toMatchObject({ reasons: [{ field: "contact_id" }] });
    await expect(invoke("inventory.check", "SKU")).rejects.toMatchObject({
      code: "invalid_payload",
      reasons: [{ field: "" }],
    });
  });

  it("a logical-attempt command without an idempotency key", async () => {
    const { invoke, seeded } = await capabilityHarness();
    await expect(invoke("contacts.update", { contact_id: seeded.contactIds[0]!, name: "X" })).rejects.toMatchObject({
      code: "invalid_argument",
      reasons: [{ field: "idempotencyKey" }],
    });
  });

  it("an implementation whose output breaks its own schema is an internal error, never returned", async () => {
    const { vitrina, principal } = await capabilityHarness();
    vitrina.capabilities.register(
      defineCapability({
        name: "broken.answer",
        version: "0.1.0",
        summary: "Lies about its output.",
        execution: "query",
        riskClass: "read",
        requiredScopes: ["catalog:read"],
        scopeMatch: "anyOf",
        input: z.strictObject({}),
        output: z.strictObject({ count: z.number() }),
        idempotency: { required: false, strategy: "none" },
        run: async () => ({ output: { count: "three" } as never }),
      }),
    );
    await expect(vitrina.capabilities.invoke("broken.answer", {}, { principal: principal() })).rejects.toMatchObject({
      code: "internal",
      reasons: [{ field: "count" }],
    });
  });
});
