import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineCapability } from "@vitrina/core";
import { capabilityHarness } from "./support/harness.js";

const get = (headers: Record<string, string> = {}) => new Request("http://localhost/v1/capabilities", { headers });

describe("GET /v1/capabilities", () => {
  it("serves the catalog publicly with Cache-Control and a strong ETag", async () => {
    const { vitrina } = await capabilityHarness();
    const response = await vitrina.handler(get());
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    expect(response.headers.get("etag")).toMatch(/^"[0-9a-f]{64}"$/);
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(vitrina.capabilities.catalog())));
  });

  it("answers 304 with no body when If-None-Match matches, 200 otherwise", async () => {
    const { vitrina } = await capabilityHarness();
    const etag = (await vitrina.handler(get())).headers.get("etag")!;
    const notModified = await vitrina.handler(get({ "if-none-match": `"other", ${etag}` }));
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("etag")).toBe(etag);
    expect(await notModified.text()).toBe("");
    expect((await vitrina.handler(get({ "if-none-match": `W/${etag}` }))).status).toBe(304);
    expect((await vitrina.handler(get({ "if-none-match": "*" }))).status).toBe(304);
    expect((await vitrina.handler(get({ "if-none-match": '"stale"' }))).status).toBe(200);
  });

  it("keeps the ETag while the registry is unchanged and moves it when a capability is registered", async () => {
    const { vitrina, clock } = await capabilityHarness();
    const first = (await vitrina.handler(get())).headers.get("etag");
    clock.advance(3_600_000);
    expect((await vitrina.handler(get())).headers.get("etag")).toBe(first);
    vitrina.capabilities.register(
      defineCapability({
        name: "notes.read",
        version: "1.0.0",
        summary: "Reads notes.",
        execution: "query",
        riskClass: "read",
        requiredScopes: ["notes:read"],
        scopeMatch: "anyOf",
        input: z.strictObject({}),
        output: z.strictObject({}),
        idempotency: { required: false, strategy: "none" },
        run: async () => ({ output: {} }),
      }),
    );
    const after = await vitrina.handler(get({ "if-none-match": first! }));
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(first);
    expect((await after.json()).capabilities).toHaveLength(7);
  });

  it("allows only GET (and HEAD, its bodiless form)", async () => {
    const { vitrina } = await capabilityHarness();
    const response = await vitrina.handler(new Request("http://localhost/v1/capabilities", { method: "POST" }));
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
  });
});
