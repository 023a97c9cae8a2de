import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryStorage } from "@vitrina/adapter-memory";
import type { Storage } from "@vitrina/core";
import { hostileJsonValue, hostileString } from "../../core/test/support/hostile-strings.js";
import { backends, openTestStorage, testVitrina } from "./support.js";

// The admin API's JSON inputs from an untrusted client, with U+0000 and lone surrogates in every
// string: each request is answered with a stable 4xx or a success, never a 500, and a refused
// request leaves nothing behind (no half-written connector, key, member, WhatsApp channel or
// consent ledger entry). Strings of 10 KB and more reach the WhatsApp channel's fields too.
const RUNS = 60;

describe.each(["memory", ...backends] as const)("admin API JSON inputs on %s", (backend) => {
  let storage: Storage;
  let vitrina: ReturnType<typeof testVitrina>;
  let key: string;
  let workspaceId: string;
  let contactId: string;
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
    contactId = (await vitrina.contacts.optOutOfWhatsApp({ workspaceId, phoneE164: "+56911112222" })).id;
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
    channel: await storage.whatsappChannels.get(workspaceId),
    ledger: (await storage.consentLedger.listByContact(workspaceId, contactId, { limit: 200 })).length,
  });

  const text = () => fc.oneof(hostileString({ maxLength: 20 }), fc.constantFrom("ok name", "crm-1", "a@b.cl", "admin"));
  const long = () => hostileString({ minLength: 10_000, maxLength: 10_240 });
  const field = () => fc.oneof(text(), long(), fc.constant(null), fc.array(text(), { maxLength: 3 }));
  const bodies = {
    "POST /v1/connectors": fc.oneof(hostileJsonValue(), fc.record({ name: text(), system: text() })),
    "POST /v1/api-keys": fc.oneof(
      hostileJsonValue(),
      fc.record({ name: text(), scopes: fc.array(fc.oneof(text(), fc.constant("admin:read")), { maxLength: 3 }) }),
    ),
    "POST /v1/members": fc.oneof(hostileJsonValue(), fc.record({ email: text(), role: text() })),
    "PATCH /v1/members/owner-1": fc.oneof(hostileJsonValue(), fc.record({ role: text() })),
    "PUT /v1/whatsapp-channel": fc.oneof(
      hostileJsonValue(),
      fc.record(
        {
          phone_number_id: fc.oneof(text(), long(), fc.constantFrom("1065", "2077")),
          access_token: field(),
          app_secret: fc.oneof(field(), fc.constant("meta-app-secret")),
          verify_token: field(),
          graph_base_url: fc.oneof(field(), fc.constant("https://graph.example.com")),
          api_version: field(),
          opt_out_keywords: field(),
          opt_in_keywords: field(),
        },
        { requiredKeys: ["phone_number_id"] },
      ),
    ),
    "POST /v1/contacts/{contact}/opt-out": fc.oneof(hostileJsonValue(), fc.record({ note: fc.oneof(text(), long()) })),
  };

  for (const [route, body] of Object.entries(bodies)) {
    it(`${route}: hostile JSON never gives a 500 or a half-written record (${RUNS} runs)`, async () => {
      const [method, template] = route.split(" ") as [string, string];
      const path = template.replace("{contact}", contactId);
      await fc.assert(
        fc.asyncProperty(body, async (input) => {
          const before = await counts();
          const { status, json } = await call(method, path, input);
          expect(status).toBeLessThan(500);
          if (status >= 400) {
            expect(json.error.code).toMatch(
              /^(invalid_payload|invalid_argument|conflict|forbidden|insufficient_scope|malformed_json|payload_too_large)$/,
            );
            expect(await counts()).toEqual(before);
          }
        }),
        { numRuns: RUNS },
      );
    });
  }
});
