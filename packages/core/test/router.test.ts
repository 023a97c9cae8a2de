import { describe, expect, it } from "vitest";
import { silentLogger } from "@vitrina/core";
import { createRouter, jsonResponse } from "@vitrina/core/http";

const router = createRouter(
  [
    { method: "GET", path: "/items/:id", handler: async (_request, params) => jsonResponse({ id: params.id }) },
    { method: "POST", path: "/items", handler: async () => Promise.reject(new Error("a bug with secrets in it")) },
  ],
  silentLogger,
);
const call = async (method: string, path: string) => {
  const response = await router(new Request(`http://localhost${path}`, { method }));
  return { status: response.status, allow: response.headers.get("allow"), json: (await response.json()) as any };
};

describe("router", () => {
  it("decodes path params", async () => {
    expect(await call("GET", "/items/a%20b")).toMatchObject({ status: 200, json: { id: "a b" } });
  });
  it("answers 400 for malformed percent-encoding instead of failing", async () => {
    expect(await call("GET", "/items/%E0%A4%A")).toMatchObject({
      status: 400,
      json: { error: { code: "invalid_argument" } },
    });
  });
  it("answers 405 with Allow for a known path and 404 for an unknown one", async () => {
    expect(await call("DELETE", "/items/1")).toMatchObject({ status: 405, allow: "GET, HEAD" });
    expect(await call("GET", "/nothing")).toMatchObject({ status: 404, json: { error: { code: "not_found" } } });
  });
  it("answers HEAD as GET without the body, and a HEAD to a path with no GET as 405 without a body", async () => {
    const head = await router(new Request("http://localhost/items/7", { method: "HEAD" }));
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toContain("application/json");
    expect(head.body).toBeNull();
    const noGet = await router(new Request("http://localhost/items", { method: "HEAD" }));
    expect({ status: noGet.status, allow: noGet.headers.get("allow"), body: noGet.body }).toEqual({
      status: 405,
      allow: "POST",
      body: null,
    });
  });
  it("hides an unexpected error behind a generic 500 body", async () => {
    const result = await call("POST", "/items");
    expect(result).toMatchObject({ status: 500, json: { error: { code: "internal", message: "internal error" } } });
    expect(JSON.stringify(result.json)).not.toContain("secrets");
  });
});

describe("GET /v1/events/schemas", () => {
  it("publishes every event type with its envelope schema, cacheable with an ETag", async () => {
    const { memoryStorage } = await import("@vitrina/adapter-memory");
    const { createVitrina, EVENT_TYPES } = await import("@vitrina/core");
    const { logMessagingTransport } = await import("@vitrina/core/demo");
    const vitrina = createVitrina({
      storage: memoryStorage(),
      messaging: logMessagingTransport(silentLogger),
      secretBox: Buffer.alloc(32, 2).toString("base64"),
    });
    const response = await vitrina.handler(new Request("http://localhost/v1/events/schemas"));
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
    const body = (await response.json()) as { events: Array<{ type: string; schema: any }> };
    expect(body.events.map((e) => e.type).sort()).toEqual([...EVENT_TYPES].sort());
    const order = body.events.find((e) => e.type === "order.confirmed")!.schema;
    expect(order.properties.data.required.sort()).toEqual([
      "approved_by",
      "contact_id",
      "currency",
      "decided_by",
      "order_id",
      "total",
    ]);
    const again = await vitrina.handler(
      new Request("http://localhost/v1/events/schemas", {
        headers: { "if-none-match": response.headers.get("etag")! },
      }),
    );
    expect(again.status).toBe(304);
  });
});
