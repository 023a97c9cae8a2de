import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleLead, startLeadHarness, type LeadHarness } from "../support/lead-harness.js";

// Keys that name Object.prototype members must be treated like any other unknown qualification
// field. They are sent as raw JSON text: JSON.parse makes `__proto__` an own property, which an
// object literal in the test would not.
describe("qualification keys that shadow Object.prototype", () => {
  let h: LeadHarness;
  beforeAll(async () => {
    h = await startLeadHarness();
  });
  afterAll(() => h.close());

  const unknownReason = "unknown qualification field for the real_estate vertical; accepted: monthly_income";

  for (const key of ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"]) {
    it(`refuses "${key}" with the unknown-field reason, whatever its value`, async () => {
      for (const value of ["1000", "{}", "null", '{"monthly_income": 5}']) {
        const body = JSON.stringify(sampleLead({ qualification: { monthly_income: 1_800_000 } })).replace(
          '"qualification":{',
          `"qualification":{${JSON.stringify(key)}:${value},`,
        );
        const { status, json } = await h.send(body);
        expect(status).toBe(200);
        expect(json.qualification).toEqual({
          recorded: [{ field: "monthly_income", value: 1_800_000 }],
          rejected: [{ field: key, reason: unknownReason }],
        });
        const opportunity = await h.storage.opportunities.get(json.opportunity_id);
        expect(opportunity?.qualification.map((q) => q.field)).toEqual(["monthly_income"]);
      }
    });
  }

  it("stores a `__proto__` key in metadata as sent instead of dropping it", async () => {
    const body = JSON.stringify(sampleLead({ metadata: { utm: "x" } })).replace(
      '"metadata":{',
      '"metadata":{"__proto__":{"polluted":true},',
    );
    const { status, json } = await h.send(body);
    expect(status).toBe(200);
    const lead = await h.storage.leads.get(json.lead_event_id);
    const metadata = (lead?.payload as { metadata: Record<string, unknown> }).metadata;
    expect(Object.keys(metadata)).toEqual(["__proto__", "utm"]);
    expect(Object.getOwnPropertyDescriptor(metadata, "__proto__")?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses prototype keys for a vertical with no fields too", async () => {
    const { evaluateQualification } = await import("@vitrina/core/capabilities");
    const qualification = JSON.parse('{"__proto__": 5, "constructor": 1, "toString": 2}') as Record<string, unknown>;
    const outcome = evaluateQualification(qualification, "generic", "CLP");
    expect(outcome.recorded).toEqual([]);
    expect(outcome.rejected.map((r) => r.field)).toEqual(["__proto__", "constructor", "toString"]);
    expect(
      outcome.rejected.every(
        (r) => r.reason === "unknown qualification field for the generic vertical; accepted: none",
      ),
    ).toBe(true);
  });
});
