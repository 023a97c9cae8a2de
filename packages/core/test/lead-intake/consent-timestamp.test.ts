import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleLead, startLeadHarness, type LeadHarness } from "../support/lead-harness.js";

const NOW = "2026-03-01T12:00:00.000Z";

// Consent is evidence of something that already happened: an impossible calendar date or a time
// ahead of the server's clock (beyond a small skew) is refused, and nothing is stored or sent.
describe("whatsapp_consent.timestamp", () => {
  let h: LeadHarness;
  beforeAll(async () => {
    h = await startLeadHarness();
    h.clock.set(NOW);
  });
  afterAll(() => h.close());

  const withConsentAt = (timestamp: string) =>
    sampleLead({ whatsapp_consent: { granted: true, timestamp, source: "form", purpose: "sales" } });

  async function expectRefused(timestamp: string, reason: RegExp) {
    const before = await h.counts();
    const { status, json } = await h.send(withConsentAt(timestamp));
    expect({ timestamp, status }).toEqual({ timestamp, status: 422 });
    expect(json.error.code).toBe("invalid_payload");
    expect(json.error.reasons).toEqual([
      { field: "whatsapp_consent.timestamp", reason: expect.stringMatching(reason) },
    ]);
    expect(await h.counts()).toEqual(before);
  }

  it("refuses dates that do not exist on the calendar", async () => {
    for (const timestamp of [
      "2026-02-30T00:00:00Z",
      "2025-02-29T00:00:00Z",
      "2026-04-31T10:00:00Z",
      "2026-13-01T00:00:00Z",
      "2026-00-10T00:00:00Z",
    ]) {
      await expectRefused(timestamp, /not a real date/);
    }
  });

  it("refuses impossible times of day (hour 24, minute 60, second 61)", async () => {
    for (const timestamp of ["2026-01-31T24:00:00Z", "2026-01-31T12:60:00Z", "2026-01-31T12:00:61Z"]) {
      await expectRefused(timestamp, /not a real date/);
    }
  });

  it("refuses offsets other than Z, lowercase separators and missing seconds", async () => {
    for (const timestamp of [
      "2026-01-31T12:00:00+00:00",
      "2026-01-31T09:00:00-03:00",
      "2026-01-31t12:00:00z",
      "2026-01-31T12:00Z",
    ]) {
      await expectRefused(timestamp, /UTC timestamp/);
    }
  });

  it("refuses consent dated in the future beyond 5 minutes of clock skew", async () => {
    await expectRefused("9999-12-31T00:00:00Z", /in the future/);
    await expectRefused("2026-03-01T12:05:01Z", /in the future/);
  });

  it("accepts consent up to 5 minutes ahead (clock skew), a leap day and fractions of a second", async () => {
    for (const timestamp of ["2026-03-01T12:05:00Z", "2024-02-29T23:59:59.999Z", "2026-03-01T11:59:59.123456789Z"]) {
      const { status, json } = await h.send(withConsentAt(timestamp));
      expect({ timestamp, status }).toEqual({ timestamp, status: 200 });
      expect(json.outbound.status).toBe("sent");
    }
  });
});
