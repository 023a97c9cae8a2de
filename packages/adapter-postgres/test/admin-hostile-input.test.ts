import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryStorage } from "@vitrina/adapter-memory";
import type { Storage } from "@vitrina/core";
import { hostileJsonValue, hostileString } from "../../core/test/support/hostile-strings.js";
import { backends, openTestStorage, testVitrina } from "./support.js";

// The admin API's JSON inputs from an untrusted client, with U+0000 and lone surrogates in every
// string: each request is answered with a stable 4xx or a success, never a 500, and a refused
// request leaves nothing behind (no half-written connector, key or member).
const RUNS = 60;

describe.each(["memory", ...backends] as const)("admin API JSON inputs on %s", (backend) => {
  let storage: Storage;
  let vitrina: ReturnType<typeof testVitrina>;
  let key: string;
  let workspaceId: string;
  beforeAll(async () => {
    storage = backend === "memory" ? memoryStorage() : (await openTestStorage(backend)).storage;
    vitrina = testVitrina(storage);
    workspaceId = (await vitrina.workspaces.create({ name: "hostile", ownerUserId: "owner-1" })).id;
    key = (
      await vitrina.apiKeys.issue({ userId: "owner-1" }, workspaceId, {
        name: "admin",
        scopes: ["admin:read", "admin:write"],
      })
    ).secret;
  });
  afterAll(async () => {
    await storage.close();
  });

  async function call(method: string, path: string, body: unknown) {
    const response = await vitrina.handler(
      new Request(`http://vitrina.test${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    );
    return { status: response.status, json: (await response.json().catch(() => null)) as any };
  }
  const counts = async () => ({
    connectors: (await storage.connectors.listByWorkspace(workspaceId)).length,
    keys: (await storage.apiKeys.listByWorkspace(workspaceId)).length,
    members: (await storage.members.list(workspaceId)).length,
  });

  const text = () => fc.oneof(hostileString({ maxLength: 20 }), fc.constantFrom("ok name", "crm-1", "a@b.cl", "admin"));
  const bodies = {
    "POST /v1/connectors": fc.oneof(hostileJsonValue(), fc.record({ name: text(), system: text() })),
    "POST /v1/api-keys": fc.oneof(
      hostileJsonValue(),
      fc.record({ name: text(), scopes: fc.array(fc.oneof(text(), fc.constant("admin:read")), { maxLength: 3 }) }),
    ),
    "POST /v1/members": fc.oneof(hostileJsonValue(), fc.record({ email: text(), role: text() })),
    "PATCH /v1/members/owner-1": fc.oneof(hostileJsonValue(), fc.record({ role: text() })),
  };

  for (const [route, body] of Object.entries(bodies)) {
    it(`${route}: hostile JSON never gives a 500 or a half-written record (${RUNS} runs)`, async () => {
      const [method, path] = route.split(" ") as [string, string];
      await fc.assert(
        fc.asyncProperty(body, async (input) => {
          const before = await counts();
          const { status, json } = await call(method, path, input);
          expect(status).toBeLessThan(500);
          if (status >= 400) {
            expect(json.error.code).toMatch(/^(invalid_payload|invalid_argument|conflict|forbidden|malformed_json)$/);
            expect(await counts()).toEqual(before);
          }
        }),
        { numRuns: RUNS },
      );
    });
  }
});
