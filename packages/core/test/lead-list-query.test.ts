import fc from "fast-check";
import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, silentLogger } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { beforeAll, describe, expect, it } from "vitest";
import { hostileString, percentEncode } from "./support/hostile-strings.js";

// `GET /v1/leads` reads its filters from an untrusted query string: every bad value is refused
// with a stable code and the parameter at fault, never a 500, U+0000 and lone surrogates included.
const PARAMS = ["connector_id", "first_message_status", "duplicate", "limit", "starting_after"] as const;

describe("GET /v1/leads query", () => {
  const vitrina = createVitrina({
    storage: memoryStorage(),
    messaging: logMessagingTransport(silentLogger),
    secretBox: Buffer.alloc(32, 4).toString("base64"),
    logger: silentLogger,
  });
  let key = "";
  let workspaceId = "";
  beforeAll(async () => {
    const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner" });
    workspaceId = workspace.id;
    key = (await vitrina.apiKeys.issue({ userId: "owner" }, workspace.id, { name: "r", scopes: ["admin:read"] }))
      .secret;
  });
  const get = async (query: string) => {
    const response = await vitrina.handler(
      new Request(`http://vitrina.test/v1/leads?${query}`, { headers: { authorization: `Bearer ${key}` } }),
    );
    return { status: response.status, json: (await response.json()) as any };
  };

  it("names each bad parameter, all at once; U+0000 is refused before with its parameter", async () => {
    const refused = await get(
      "connector_id=x&first_message_status=lost&duplicate=yes&limit=0&starting_after=not%20a%20cursor",
    );
    expect(refused.status).toBe(422);
    expect(refused.json.error.code).toBe("invalid_payload");
    expect(refused.json.error.reasons.map((r: any) => r.field).sort()).toEqual([...PARAMS].sort());
    const nul = await get("starting_after=%00");
    expect([nul.status, nul.json.error.code, nul.json.error.reasons[0].field]).toEqual([
      400,
      "invalid_argument",
      "starting_after",
    ]);
  });

  it("accepts every documented value, and empty values as 'any'", async () => {
    for (const status of ["sent", "queued", "blocked", "failed", "none", ""])
      expect((await get(`first_message_status=${status}&duplicate=true&limit=100`)).status).toBe(200);
    expect((await get(`connector_id=${crypto.randomUUID()}&duplicate=false&connector_id=`)).status).toBe(200);
  });

  it("answers any query with 200 or a 4xx naming one of its parameters (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom(...PARAMS), hostileString({ maxLength: 40 }), { maxKeys: 5 }),
        async (query) => {
          const text = Object.entries(query)
            .map(([name, value]) => `${name}=${percentEncode(value)}`)
            .join("&");
          const { status, json } = await get(text);
          expect([200, 400, 422]).toContain(status);
          if (status !== 200) {
            expect(json.error.reasons.length).toBeGreaterThan(0);
            for (const reason of json.error.reasons) expect(PARAMS).toContain(reason.field);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("answers hostile lead and connector ids in the path with a 4xx, never a 500 (property)", async () => {
    const writer = (
      await vitrina.apiKeys.issue({ userId: "owner" }, workspaceId, {
        name: "w",
        scopes: ["admin:read", "admin:write"],
      })
    ).secret;
    await fc.assert(
      fc.asyncProperty(hostileString({ minLength: 1, maxLength: 60 }), async (id) => {
        for (const [method, path] of [
          ["POST", `/v1/leads/${percentEncode(id)}/retry-first-message`],
          ["GET", `/v1/connectors/${percentEncode(id)}/refusals`],
        ] as const) {
          const response = await vitrina.handler(
            new Request(`http://vitrina.test${path}`, { method, headers: { authorization: `Bearer ${writer}` } }),
          );
          expect([400, 404, 422]).toContain(response.status);
          expect(((await response.json()) as any).error.code).toMatch(/^(not_found|invalid_argument|invalid_payload)$/);
        }
      }),
      { numRuns: 150 },
    );
  });
});
