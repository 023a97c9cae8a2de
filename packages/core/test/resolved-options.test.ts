import { describe, expect, it } from "vitest";
import { memoryStorage } from "@vitrina/adapter-memory";
import { silentLogger } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { resolveOptions } from "../src/resolved-options.js";
import type { VitrinaOptions } from "../src/vitrina-options.js";

const base: VitrinaOptions = {
  storage: memoryStorage(),
  messaging: logMessagingTransport(silentLogger),
  secretBox: Buffer.alloc(32, 7).toString("base64"),
};

describe("resolveOptions: every default and derived name worked out in one place", () => {
  it("names the lead and event headers after headerPrefix", () => {
    const resolved = resolveOptions({ ...base, headerPrefix: "Acme" });
    expect(resolved.leadHeaders).toEqual({
      connectorId: "X-Acme-Connector-Id",
      timestamp: "X-Acme-Timestamp",
      signature: "X-Acme-Signature",
    });
    expect(resolved.eventHeaders).toEqual({ signature: "Acme-Signature", eventId: "Acme-Event-Id" });
    expect(resolveOptions(base).leadHeaders.timestamp).toBe("X-Vitrina-Timestamp");
  });

  it("builds each surface's URL from the public origin and the mount, relative without publicUrl", () => {
    const mounted = resolveOptions({
      ...base,
      publicUrl: "https://shop.example.com/vitrina",
      rest: { enabled: true },
      a2a: { enabled: true },
    });
    expect(mounted.urls).toEqual({
      api: "https://shop.example.com/vitrina",
      mcp: "https://shop.example.com/vitrina/mcp",
      rest: "https://shop.example.com/vitrina/v1/rest",
      // The agent card lives at the origin's root whatever the mount.
      a2a: {
        url: "https://shop.example.com/vitrina/a2a",
        cardUrl: "https://shop.example.com/.well-known/agent-card.json",
      },
    });
    expect(resolveOptions(base).urls).toEqual({ api: "/", mcp: "/mcp", rest: undefined, a2a: undefined });
    expect(resolveOptions({ ...base, capabilities: { mcpUrl: "https://mcp.example.com/" } }).urls.mcp).toBe(
      "https://mcp.example.com/",
    );
  });

  it("turns health on with options, true or an object, and leaves it off for false or nothing", () => {
    expect(resolveOptions({ ...base, health: true }).surfaces.health).toEqual({});
    expect(resolveOptions({ ...base, health: { readyTimeoutMs: 500 } }).surfaces.health).toEqual({
      readyTimeoutMs: 500,
    });
    expect(resolveOptions({ ...base, health: false }).surfaces.health).toBeNull();
    expect(resolveOptions(base).surfaces).toEqual({ rest: false, a2a: false, oauth: false, health: null });
  });

  it("refuses a bad lead-intake limit with a stable code naming the field", () => {
    expect(() => resolveOptions({ ...base, leadIntake: { toleranceMs: Number.NaN } })).toThrow(
      expect.objectContaining({
        code: "invalid_argument",
        reasons: [expect.objectContaining({ field: "leadIntake.toleranceMs" })],
      }),
    );
  });
});
