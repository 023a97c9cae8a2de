import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, silentLogger, type CapabilityOptions } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { describe, expect, it } from "vitest";

const withCapabilities = (capabilities: CapabilityOptions) =>
  createVitrina({
    storage: memoryStorage(),
    messaging: logMessagingTransport(silentLogger),
    secretBox: Buffer.alloc(32, 7).toString("base64"),
    capabilities,
  });

describe("capability options checked at createVitrina", () => {
  it("refuses an attempt lease that is not a positive whole number of milliseconds, naming the option", () => {
    for (const attemptLeaseMs of [Number.NaN, 0, -1, 1.5, Number.POSITIVE_INFINITY]) {
      expect(() => withCapabilities({ attemptLeaseMs }), String(attemptLeaseMs)).toThrow(
        expect.objectContaining({
          code: "invalid_argument",
          message: expect.stringContaining("capabilities.attemptLeaseMs"),
          reasons: [{ field: "capabilities.attemptLeaseMs", reason: expect.any(String) }],
        }),
      );
    }
  });

  it("refuses a catalog max-age that is not a whole number of seconds (0 or more), naming the option", () => {
    for (const catalogMaxAgeSeconds of [Number.NaN, -1, 2.5, Number.POSITIVE_INFINITY]) {
      expect(() => withCapabilities({ catalogMaxAgeSeconds }), String(catalogMaxAgeSeconds)).toThrow(
        expect.objectContaining({
          code: "invalid_argument",
          message: expect.stringContaining("capabilities.catalogMaxAgeSeconds"),
          reasons: [{ field: "capabilities.catalogMaxAgeSeconds", reason: expect.any(String) }],
        }),
      );
    }
  });

  it("keeps valid values and the defaults", async () => {
    const vitrina = withCapabilities({ attemptLeaseMs: 1, catalogMaxAgeSeconds: 0 });
    const answer = await vitrina.handler(new Request("http://localhost/v1/capabilities"));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("public, max-age=0");
    const byDefault = await withCapabilities({}).handler(new Request("http://localhost/v1/capabilities"));
    expect(byDefault.headers.get("cache-control")).toBe("public, max-age=300");
  });
});
