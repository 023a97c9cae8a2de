import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, silentLogger, type Storage } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { backends, openTestStorage } from "../../adapter-postgres/test/support.js";
import { hostileJsonValue, hostileString } from "./support/hostile-strings.js";

// The fields added for signing schemes and rolling rotation, fed untrusted values: each bad one is
// a 422 `invalid_payload` naming that field, never a 500, on every storage (PostgreSQL alone
// refuses U+0000 and lone surrogates, so a value that slipped past validation would show there).
const storages: Array<[string, () => Promise<Storage>]> = [
  ["memory", async () => memoryStorage()],
  ...backends.map((backend): [string, () => Promise<Storage>] => [
    backend,
    async () => (await openTestStorage(backend)).storage,
  ]),
];

const URL_OK = "http://127.0.0.1:9/hooks";
const VITRINA_SECRET = "0123456789abcdefghijklmnopqrstuv";

describe.each(storages)("signing fields with untrusted input on %s (property)", (_name, openStorage) => {
  let storage: Storage;
  let api: (method: string, path: string, body: unknown) => Promise<{ status: number; json: any }>;
  let vitrinaSub = "";
  let standardSub = "";
  beforeAll(async () => {
    storage = await openStorage();
    const vitrina = createVitrina({
      storage,
      messaging: logMessagingTransport(silentLogger),
      secretBox: Buffer.alloc(32, 5).toString("base64"),
      webhooks: { allowInsecureLoopback: true, externalWorker: true },
    });
    const workspace = await vitrina.workspaces.create({ name: "Fuzz", ownerUserId: "owner" });
    const { secret: apiKey } = await vitrina.apiKeys.issue({ userId: "owner" }, workspace.id, {
      name: "fuzz",
      scopes: ["webhooks:read", "webhooks:write"],
    });
    api = async (method, path, body) => {
      const response = await vitrina.handler(
        new Request(`http://vitrina.test${path}`, {
          method,
          headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
      return { status: response.status, json: await response.json() };
    };
    const events = ["quote.created"];
    vitrinaSub = (await api("POST", "/v1/webhooks", { url: URL_OK, events, secret: VITRINA_SECRET })).json.id;
    standardSub = (await api("POST", "/v1/webhooks", { url: URL_OK, events, signature_scheme: "standard-webhooks" }))
      .json.id;
  });
  afterAll(async () => {
    await storage?.close();
  });

  /**
   * A 4xx with a stable code whose reasons name `field`, or a part of it (the body reader names the
   * exact key of a nested value it refuses, e.g. `rotation.grace_seconds.\u0000`).
   */
  const expectRefused = (answer: { status: number; json: any }, field: string) => {
    expect(answer.status).toBe(422);
    expect(answer.json.error.code).toBe("invalid_payload");
    const fields: string[] = answer.json.error.reasons.map((r: { field: string }) => r.field);
    expect(
      fields.some((f) => f === field || f.startsWith(`${field}.`) || f.startsWith(`${field}[`)),
      fields.join(),
    ).toBe(true);
  };
  const notAScheme = fc
    .oneof(hostileString(), hostileJsonValue())
    .filter((v) => v !== "vitrina" && v !== "standard-webhooks");
  const notAGrace = fc
    .oneof(hostileJsonValue(), fc.double(), fc.integer({ min: 604_801 }), fc.integer({ max: -1 }))
    .filter((v) => !(Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 604_800));

  it("refuses any signature_scheme but the two, at creation, and any at all on an update", async () => {
    await fc.assert(
      fc.asyncProperty(notAScheme, async (scheme) => {
        const body = { url: URL_OK, events: ["quote.created"], secret: VITRINA_SECRET, signature_scheme: scheme };
        expectRefused(await api("POST", "/v1/webhooks", body), "signature_scheme");
      }),
      { numRuns: 40 },
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(notAScheme, fc.constantFrom("vitrina", "standard-webhooks")), async (scheme) => {
        expectRefused(
          await api("PATCH", `/v1/webhooks/${vitrinaSub}`, { signature_scheme: scheme }),
          "signature_scheme",
        );
      }),
      { numRuns: 40 },
    );
  });

  it("refuses any grace_seconds but a whole number from 0 to 604800", async () => {
    await fc.assert(
      fc.asyncProperty(notAGrace, async (grace) => {
        const body = { secret: VITRINA_SECRET, rotation: { grace_seconds: grace } };
        expectRefused(await api("PATCH", `/v1/webhooks/${vitrinaSub}`, body), "rotation.grace_seconds");
      }),
      { numRuns: 40 },
    );
    expect((await api("GET", `/v1/webhooks/${vitrinaSub}`, undefined)).json.previous_secret_expires_at).toBeNull();
  });

  it("refuses any Standard Webhooks secret that isn't whsec_ base64 of 24 to 64 bytes", async () => {
    const notAKey = fc.oneof(
      hostileString(),
      hostileString().map((s) => `whsec_${s}`),
    );
    await fc.assert(
      fc.asyncProperty(notAKey, async (secret) => {
        expectRefused(await api("PATCH", `/v1/webhooks/${standardSub}`, { secret }), "secret");
        const body = { url: URL_OK, events: ["quote.created"], signature_scheme: "standard-webhooks", secret };
        expectRefused(await api("POST", "/v1/webhooks", body), "secret");
      }),
      { numRuns: 40 },
    );
  });
});
