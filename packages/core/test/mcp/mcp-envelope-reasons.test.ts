import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpHarness, type McpHarness } from "./support/mcp-harness.js";

// A malformed JSON-RPC envelope is -32600 with `error.data.reasons` naming the member at fault and
// what it must be, never a reason with an empty field or a misleading one ("id is not a recognised
// field" for an id whose value is wrong).
let h: McpHarness;
beforeAll(async () => {
  h = await startMcpHarness();
});
afterAll(() => h.close());

describe("JSON-RPC envelope refusals name the member at fault", () => {
  const cases: [string, string, Record<string, unknown>, RegExp][] = [
    // MCP 2025-06-18 (basic): "Unlike base JSON-RPC, the ID MUST NOT be null."
    ["a null id", "id", { jsonrpc: "2.0", id: null, method: "ping" }, /null/],
    ["a fractional id", "id", { jsonrpc: "2.0", id: 1.5, method: "ping" }, /integer/],
    ["an id past 2^53", "id", { jsonrpc: "2.0", id: 2 ** 53, method: "ping" }, /integer/],
    ["an extra member", "extra", { jsonrpc: "2.0", id: 1, method: "ping", extra: true }, /not a JSON-RPC/],
    ["result beside method", "result", { jsonrpc: "2.0", id: 1, method: "ping", result: {} }, /not a JSON-RPC/],
    [
      "an extra member of a notification",
      "id2",
      { jsonrpc: "2.0", method: "notifications/initialized", id2: 1 },
      /not a JSON-RPC/,
    ],
  ];
  for (const [what, field, body, reason] of cases) {
    it(`${what}: 400 -32600 naming ${field}`, async () => {
      const res = await h.post(body);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32600,
          data: { code: "invalid_argument", reasons: [{ field, reason: expect.stringMatching(reason) }] },
        },
      });
      expect(res.json.error.data.reasons).toHaveLength(1);
      expect(res.json.error.message).toMatch(new RegExp(`^Invalid Request: ${field} `));
    });
  }

  it("a string id, an integer id and a notification still pass", async () => {
    expect((await h.post({ jsonrpc: "2.0", id: "a-1", method: "ping" })).json).toEqual({
      jsonrpc: "2.0",
      id: "a-1",
      result: {},
    });
    expect((await h.post({ jsonrpc: "2.0", id: 2 ** 53 - 1, method: "ping" })).json).toMatchObject({ result: {} });
    expect((await h.post({ jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);
  });
});
