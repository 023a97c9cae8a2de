import { describe, expect, it } from "vitest";
import { createRouter, jsonResponse, silentLogger } from "@vitrina/core";

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
    expect(await call("GET", "/items/%E0%A4%A")).toMatchObject({ status: 400, json: { error: { code: "invalid_argument" } } });
  });
  it("answers 405 with Allow for a known path and 404 for an unknown one", async () => {
    expect(await call("DELETE", "/items/1")).toMatchObject({ status: 405, allow: "GET" });
    expect(await call("GET", "/nothing")).toMatchObject({ status: 404, json: { error: { code: "not_found" } } });
  });
  it("hides an unexpected error behind a generic 500 body", async () => {
    const result = await call("POST", "/items");
    expect(result).toMatchObject({ status: 500, json: { error: { code: "internal", message: "internal error" } } });
    expect(JSON.stringify(result.json)).not.toContain("secrets");
  });
});
