import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, defineCapability, silentLogger } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";

// Query parameters named like Object.prototype members are keys like any other: an assignment to
// `input.__proto__` would drop the parameter without a word instead of refusing it.
describe("REST GET: __proto__, constructor and prototype as query parameters", () => {
  const RESERVED = ["__proto__", "constructor", "prototype"];
  let get: (query: string, capability?: string) => Promise<{ status: number; json: any }>;
  beforeAll(async () => {
    const vitrina = createVitrina({
      storage: memoryStorage(),
      messaging: logMessagingTransport(silentLogger),
      secretBox: Buffer.alloc(32, 7).toString("base64"),
      logger: silentLogger,
      rest: { enabled: true },
      capabilities: {
        extra: [
          defineCapability({
            name: "names.echo",
            version: "1.0.0",
            summary: "Echoes its input.",
            execution: "query",
            riskClass: "read",
            requiredScopes: ["catalog:read"],
            scopeMatch: "anyOf",
            input: z.strictObject({ constructor: z.string(), prototype: z.string() }),
            output: z.strictObject({ constructor: z.string(), prototype: z.string() }),
            idempotency: { required: false, strategy: "none" },
            run: async (_context, input) => ({ output: input }),
          }),
        ],
      },
    });
    const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner" });
    const { secret } = await vitrina.apiKeys.issue({ userId: "owner" }, workspace.id, {
      name: "ERP",
      scopes: ["catalog:read"],
    });
    get = async (query, capability = "catalog.search") => {
      const response = await vitrina.handler(
        new Request(`http://127.0.0.1/v1/rest/${capability}?${query}`, {
          headers: { authorization: `Bearer ${secret}` },
        }),
      );
      return { status: response.status, json: await response.json() };
    };
  });

  it("refuses each as an unknown parameter, naming it, like a typo", async () => {
    for (const name of [...RESERVED, "serch"]) {
      const refused = await get(`search=a&${name}=x`);
      expect({ name, status: refused.status, code: refused.json.error?.code }).toEqual({
        name,
        status: 422,
        code: "invalid_payload",
      });
      expect(refused.json.error.reasons).toEqual([{ field: name, reason: "is not a recognised field" }]);
    }
    const all = await get(RESERVED.map((name) => `${name}=x`).join("&"));
    expect(all.json.error.reasons.map((r: { field: string }) => r.field).sort()).toEqual([...RESERVED].sort());
  });

  it("takes them as input when the capability declares them", async () => {
    const echoed = await get("constructor=a&prototype=b", "names.echo");
    expect(echoed).toMatchObject({ status: 200, json: { output: { constructor: "a", prototype: "b" } } });
  });
});
