import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, silentLogger, type VitrinaOptions } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { describe, expect, it } from "vitest";

const defaultFirstMessage = { template: "vitrina_welcome", language: "es", bodyParameters: () => [] };

const withLeadIntake = (leadIntake: VitrinaOptions["leadIntake"]) => () =>
  createVitrina({
    storage: memoryStorage(),
    messaging: logMessagingTransport(silentLogger),
    secretBox: Buffer.alloc(32, 1).toString("base64"),
    logger: silentLogger,
    leadIntake,
  });

// What `Number(process.env.X)` gives for an unset or mistyped variable, and other near misses.
const notIntegers = [NaN, Infinity, -Infinity, 1.5, "300000" as unknown as number];

describe("leadIntake limits", () => {
  it("refuses a replay window, body limit, consent skew or welcome window that is not an integer in range", () => {
    const cases: Array<[string, (v: number) => VitrinaOptions["leadIntake"], number[]]> = [
      ["leadIntake.toleranceMs", (v) => ({ toleranceMs: v }), [...notIntegers, 0, -1]],
      ["leadIntake.maxBodyBytes", (v) => ({ maxBodyBytes: v }), [...notIntegers, 0, -1]],
      ["leadIntake.consentClockSkewMs", (v) => ({ consentClockSkewMs: v }), [...notIntegers, -1]],
      [
        "leadIntake.firstMessage.oncePerContactWithinMs",
        (v) => ({ firstMessage: { ...defaultFirstMessage, oncePerContactWithinMs: v } }),
        [...notIntegers, -1],
      ],
    ];
    for (const [field, options, values] of cases) {
      for (const value of values) {
        expect(withLeadIntake(options(value)), `${field} = ${String(value)}`).toThrow(
          expect.objectContaining({ code: "invalid_argument", reasons: [expect.objectContaining({ field })] }),
        );
      }
    }
  });

  it("accepts the defaults, and 0 where 0 means something (no skew, no welcome limit)", () => {
    expect(withLeadIntake(undefined)).not.toThrow();
    expect(withLeadIntake({})).not.toThrow();
    expect(
      withLeadIntake({
        toleranceMs: 1,
        maxBodyBytes: 1,
        consentClockSkewMs: 0,
        firstMessage: { ...defaultFirstMessage, oncePerContactWithinMs: 0 },
      }),
    ).not.toThrow();
    expect(
      withLeadIntake({ firstMessage: { ...defaultFirstMessage, oncePerContactWithinMs: undefined } }),
    ).not.toThrow();
  });
});
