import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostileJsonValue, hostileString } from "../support/hostile-strings.js";
import { fieldsOf } from "./support/outcomes.js";
import { startA2aServer, type A2aServer } from "./support/a2a-harness.js";

/** Every JSON-RPC code /a2a may answer with. */
const KNOWN_CODES = [-32700, -32600, -32601, -32602, -32001, -32003, -32004, -32005, -32007, -32009, -32000];

/** A value nested `depth` levels deep, in arrays or objects. */
const deeplyNested = fc
  .tuple(fc.integer({ min: 20, max: 80 }), fc.boolean(), hostileString({ maxLength: 3 }))
  .map(([depth, arrays, leaf]) => {
    let value: unknown = leaf;
    for (let i = 0; i < depth; i++) value = arrays ? [value] : { n: value };
    return value;
  });

/** Parts of every kind, right and wrong: data, text, file url and bytes, v0.3's kind-tagged ones, junk. */
const part = fc.oneof(
  fc.record({
    data: fc.oneof(
      fc.record({
        capability: fc.oneof(fc.constantFrom("catalog.search", "contacts.get", "contacts.update"), hostileString()),
        input: fc.oneof(
          hostileJsonValue(),
          deeplyNested,
          fc.dictionary(hostileString({ maxLength: 8 }), hostileJsonValue()),
        ),
      }),
      hostileJsonValue(),
      deeplyNested,
    ),
    mediaType: fc.oneof(fc.constant("application/json"), hostileString()),
  }),
  fc.record({ text: hostileString() }),
  fc.record({ url: hostileString(), mediaType: hostileString() }),
  fc.record({ raw: hostileString() }),
  fc.record({ kind: fc.constantFrom("text", "data", "file"), text: hostileString(), data: hostileJsonValue() }),
  fc.record({ text: hostileString(), data: hostileJsonValue() }),
  hostileJsonValue(),
);

const message = fc.record(
  {
    messageId: fc.oneof(hostileString(), fc.integer()),
    role: fc.oneof(fc.constantFrom("ROLE_USER", "ROLE_AGENT", "user", 1), hostileString()),
    parts: fc.oneof(fc.array(part, { maxLength: 3 }), hostileJsonValue()),
    contextId: hostileString(),
    taskId: hostileString(),
    metadata: fc.oneof(fc.record({ idempotencyKey: fc.oneof(hostileString(), fc.integer()) }), hostileJsonValue()),
  },
  { requiredKeys: ["messageId", "role", "parts"] },
);

const envelope = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant("2.0"), hostileJsonValue()),
    id: fc.oneof(fc.integer(), hostileString(), fc.constant(null), hostileJsonValue()),
    method: fc.oneof(
      fc.constantFrom(
        "SendMessage",
        "GetTask",
        "CancelTask",
        "message/send",
        "SendStreamingMessage",
        "constructor",
        "__proto__",
        "hasOwnProperty",
      ),
      hostileString(),
    ),
    params: fc.oneof(
      fc.record({ message }),
      fc.record({ message, configuration: hostileJsonValue() }),
      hostileJsonValue(),
    ),
  },
  { requiredKeys: ["jsonrpc", "id", "method"] },
);

describe("A2A under hostile input", () => {
  let h: A2aServer;
  beforeAll(async () => {
    h = await startA2aServer({ a2a: { enabled: true } });
  });
  afterAll(() => h.close());

  it("answers every request with a clean JSON-RPC answer, never a 5xx (U+0000, lone surrogates, deep nesting, wrong parts)", async () => {
    let refusedWithFields = 0;
    await fc.assert(
      fc.asyncProperty(envelope, fc.boolean(), async (request, keyed) => {
        // JSON.stringify escapes lone surrogates (\ud800), so the server parses them back as sent.
        const answer = await h.call("POST", "/a2a", {
          body: JSON.stringify(request),
          headers: { "a2a-version": "1.0", ...(keyed && { "idempotency-key": "ignored" }) },
        });
        expect(answer.status).toBeLessThan(500);
        expect(answer.json.jsonrpc).toBe("2.0");
        if (answer.json.error === undefined) {
          expect(answer.json.result.message.role).toBe("ROLE_AGENT");
          return;
        }
        expect(KNOWN_CODES).toContain(answer.json.error.code);
        expect(typeof answer.json.error.message).toBe("string");
        if (answer.json.error.code === -32602) {
          expect(fieldsOf(answer.json.error.data).length).toBeGreaterThan(0);
          refusedWithFields++;
        }
      }),
      { numRuns: 150 },
    );
    // The generators reach the params checks, not only the envelope's.
    expect(refusedWithFields).toBeGreaterThan(0);
  });

  it("refuses U+0000 and lone surrogates in the capability's input naming the field, as REST does", async () => {
    for (const bad of ["a\u0000b", "\ud800", "x\udfff"]) {
      const answer = await h.rpc("SendMessage", {
        message: {
          messageId: "m",
          role: "ROLE_USER",
          parts: [{ data: { capability: "catalog.search", input: { search: bad } } }],
        },
      });
      expect([answer.status, answer.json.id, answer.json.error.code]).toEqual([200, 7, -32602]);
      expect(fieldsOf(answer.json.error.data)).toEqual(["message.parts[0].data.input.search"]);
    }
  });

  it("takes Object.prototype's names for what they are: unknown capabilities, unknown keys", async () => {
    for (const capability of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      const answer = await h.call("POST", "/a2a", {
        headers: { "a2a-version": "1.0" },
        // Written as text: an object literal's `__proto__` would set a prototype, not a key.
        body: `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"__proto__":{"x":1},"message":{"messageId":"m","role":"ROLE_USER","constructor":1,"parts":[{"data":{"capability":${JSON.stringify(capability)},"input":{"__proto__":{"limit":1}}}}]}}}`,
      });
      expect([capability, answer.status, answer.json.error.code]).toEqual([capability, 200, -32602]);
      expect(fieldsOf(answer.json.error.data)).toEqual(["message.parts[0].data.capability"]);
    }
  });

  it("refuses a value nested past the body's depth limit naming where it starts", async () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 40; i++) deep = [deep];
    const answer = await h.rpc("SendMessage", {
      message: { messageId: "m", role: "ROLE_USER", parts: [{ data: { capability: "catalog.search", input: deep } }] },
    });
    expect([answer.status, answer.json.error.code]).toEqual([200, -32602]);
    expect(fieldsOf(answer.json.error.data)).toEqual(["message"]);
  });
});
