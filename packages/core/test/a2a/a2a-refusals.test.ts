import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@a2a-js/sdk/client";
import { LegacyJsonRpcTransport } from "@a2a-js/sdk/compat/v0_3/client";
import { fieldsOf, vitrinaCodeOf } from "./support/outcomes.js";
import { bearer, capabilityMessage, officialClient, startA2aServer, type A2aServer } from "./support/a2a-harness.js";

/** `SendMessage` params with one part (a data part holding this call unless given another). */
const send = (part: Record<string, unknown>, message: Record<string, unknown> = {}) => ({
  message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [part], ...message },
});
const call = (capability: string, input: unknown) => ({ data: { capability, input }, mediaType: "application/json" });

describe("A2A refusals", () => {
  let h: A2aServer;
  let client: Client;
  beforeAll(async () => {
    h = await startA2aServer({
      a2a: { enabled: true },
      // A policy that sends contacts.update to a person when the new name is "Blocked".
      policies: [
        ({ capability, input }) =>
          capability.name === "contacts.update" && (input as { name?: string }).name === "Blocked"
            ? { block: "renames to Blocked need a person" }
            : "allow",
      ],
    });
    client = await officialClient(h.server.url);
  });
  afterAll(() => h.close());

  it("answers the methods it doesn't serve with A2A's errors, through the official client too", async () => {
    // Pairs, then Object.fromEntries: `__proto__` is a method name like any other here.
    const answered: Array<[string, number]> = [];
    for (const method of [
      "GetTask",
      "CancelTask",
      "ListTasks",
      "SendStreamingMessage",
      "SubscribeToTask",
      "CreateTaskPushNotificationConfig",
      "GetTaskPushNotificationConfig",
      "ListTaskPushNotificationConfigs",
      "DeleteTaskPushNotificationConfig",
      "GetExtendedAgentCard",
      "tasks/get",
      "NoSuchMethod",
      "constructor",
      "__proto__",
      "toString",
    ])
      answered.push([method, (await h.rpc(method, { id: "t-1" })).json.error.code]);
    expect(Object.fromEntries(answered)).toEqual({
      GetTask: -32001,
      CancelTask: -32004,
      ListTasks: -32004,
      SendStreamingMessage: -32004,
      SubscribeToTask: -32004,
      CreateTaskPushNotificationConfig: -32003,
      GetTaskPushNotificationConfig: -32003,
      ListTaskPushNotificationConfigs: -32003,
      DeleteTaskPushNotificationConfig: -32003,
      GetExtendedAgentCard: -32007,
      "tasks/get": -32601,
      NoSuchMethod: -32601,
      constructor: -32601,
      ["__proto__"]: -32601,
      toString: -32601,
    });
    await expect(client.getTask({ id: "t-1", tenant: "" }, bearer(h.apiKey))).rejects.toMatchObject({
      name: "TaskNotFoundError",
    });
    await expect(
      client.cancelTask({ id: "t-1", tenant: "", metadata: undefined }, bearer(h.apiKey)),
    ).rejects.toMatchObject({
      name: "UnsupportedOperationError",
    });
  });

  it("serves A2A 1.0 only: a request without A2A-Version is taken for v0.3 and refused as such", async () => {
    const missing = await h.rpc("message/send", send(call("catalog.search", {})), { headers: { "a2a-version": "" } });
    expect(missing.status).toBe(200);
    expect(missing.json.error.code).toBe(-32009);
    expect(missing.json.error.message).toContain("A2A-Version: 1.0");
    const later = await h.rpc("SendMessage", send(call("catalog.search", {})), { headers: { "a2a-version": "2.0" } });
    expect(later.json.error.code).toBe(-32009);
    const v03Name = await h.rpc("message/send", send(call("catalog.search", {})));
    expect(v03Name.json.error).toMatchObject({ code: -32601, message: expect.stringContaining("SendMessage") });
    // The SDK's own v0.3 transport (message/send, no A2A-Version) hears "version not supported".
    const legacy = new LegacyJsonRpcTransport({ endpoint: `${h.server.url}/a2a` });
    await expect(legacy.sendMessage(capabilityMessage("catalog.search", {}), bearer(h.apiKey))).rejects.toMatchObject({
      name: "VersionNotSupportedError",
    });
  });

  it("names the field at fault: in the capability's input, the part, the role, the call", async () => {
    const cases: Array<[params: unknown, rpcCode: number, fields: string[]]> = [
      [send(call("catalog.search", { limit: "many" })), -32602, ["message.parts[0].data.input.limit"]],
      [send(call("catalog.search", { serch: "typo" })), -32602, ["message.parts[0].data.input.serch"]],
      [send(call("nothing.here", {})), -32602, ["message.parts[0].data.capability"]],
      [
        send({ data: { capabilty: "catalog.search" } }),
        -32602,
        ["message.parts[0].data.capabilty", "message.parts[0].data.capability"],
      ],
      [send({ text: "find me a flat" }), -32005, ["message.parts[0]"]],
      [send({ url: "https://example.com/a.pdf" }), -32005, ["message.parts[0]"]],
      [send({ data: { capability: "catalog.search" }, mediaType: "text/csv" }), -32005, ["message.parts[0].mediaType"]],
      [send(call("catalog.search", {}), { role: "ROLE_AGENT" }), -32602, ["message.role"]],
      [{ message: { ...send(call("catalog.search", {})).message, parts: [] } }, -32602, ["message.parts"]],
      [{}, -32602, ["message"]],
    ];
    for (const [params, rpcCode, fields] of cases) {
      const answer = await h.rpc("SendMessage", params);
      expect({
        params,
        status: answer.status,
        code: answer.json.error.code,
        fields: fieldsOf(answer.json.error.data).sort(),
      }).toEqual({
        params,
        status: 200,
        code: rpcCode,
        fields: [...fields].sort(),
      });
    }
  });

  it("answers a message that continues a task with task not found: it keeps none", async () => {
    const answer = await h.rpc("SendMessage", send(call("catalog.search", {}), { taskId: "t-9" }));
    expect(answer.json.error.code).toBe(-32001);
  });

  it("runs a command once per idempotency key from the message metadata: replays it, refuses its reuse", async () => {
    const update = (name: string, idempotencyKey?: string) =>
      h.rpc(
        "SendMessage",
        send(call("contacts.update", { contact_id: h.contact.id, name }), {
          ...(idempotencyKey !== undefined && { metadata: { idempotencyKey } }),
        }),
      );
    const missing = await update("Ana");
    expect(fieldsOf(missing.json.error.data)).toEqual(["message.metadata.idempotencyKey"]);
    const first = await update("Ana", "rename-ana");
    expect(first.json.result.message.parts[0].data).toEqual({ ok: true });
    expect(first.json.result.message.metadata.provenance.freshness).toBe("live");
    const replay = await update("Ana", "rename-ana");
    expect(replay.json.result.message.parts[0].data).toEqual({ ok: true });
    expect(replay.json.result.message.metadata.provenance.freshness).toBe("recorded");
    const reused = await update("Otra", "rename-ana");
    expect(reused.json.error.code).toBe(-32000);
    expect(vitrinaCodeOf(reused.json.error.data)).toBe("idempotency_key_reused");
    expect(fieldsOf(reused.json.error.data)).toEqual(["message.metadata.idempotencyKey"]);
    expect((await h.storage.contacts.get(h.workspace.id, h.contact.id))!.name).toBe("Ana");
  });

  it("answers a policy block with the task a person now reviews", async () => {
    const answer = await h.rpc(
      "SendMessage",
      send(call("contacts.update", { contact_id: h.contact.id, name: "Blocked" }), {
        metadata: { idempotencyKey: "blocked-1" },
      }),
    );
    expect(answer.json.error.code).toBe(-32000);
    const [info] = answer.json.error.data;
    expect(info).toMatchObject({ reason: "POLICY_BLOCKED", domain: "vitrina", metadata: { code: "policy_blocked" } });
    const tasks = await h.storage.tasks.listByWorkspace(h.workspace.id);
    expect(tasks.map((t: { id: string }) => t.id)).toEqual([info.metadata.taskId]);
  });

  it("replies with a Message in the caller's context, its output in one JSON data part", async () => {
    const answer = await h.rpc("SendMessage", send(call("inventory.check", { sku: "NOPE-1" }), { contextId: "ctx-1" }));
    expect(answer.json).toMatchObject({
      jsonrpc: "2.0",
      id: 7,
      result: {
        message: {
          role: "ROLE_AGENT",
          contextId: "ctx-1",
          parts: [{ data: { found: false, sku: "NOPE-1" }, mediaType: "application/json" }],
          metadata: { capability: "inventory.check", provenance: { freshness: "live" } },
        },
      },
    });
  });

  it("refuses an API key without the capability's scope with 403 and REST's challenge", async () => {
    const webhooksOnly = await h.issue(["webhooks:read"]);
    const refused = await h.rpc("SendMessage", send(call("catalog.search", {})), { key: webhooksOnly });
    expect([refused.status, refused.headers.get("www-authenticate")]).toEqual([
      403,
      'Bearer realm="vitrina", error="insufficient_scope"',
    ]);
    expect([refused.json.error.code, vitrinaCodeOf(refused.json.error.data)]).toEqual([-32000, "insufficient_scope"]);
  });

  it("refuses a request without a credential, or with an unknown one, with 401 (no OAuth: the service-wide challenge)", async () => {
    const none = await h.rpc("SendMessage", send(call("catalog.search", {})), { key: null });
    expect([none.status, none.headers.get("www-authenticate")]).toEqual([401, 'Bearer realm="vitrina"']);
    expect(vitrinaCodeOf(none.json.error.data)).toBe("unauthorized");
    const unknown = await h.rpc("SendMessage", send(call("catalog.search", {})), { key: "vtr_live_nope" });
    expect([unknown.status, unknown.headers.get("www-authenticate")]).toEqual([
      401,
      'Bearer realm="vitrina", error="invalid_token"',
    ]);
  });

  it("answers what is no JSON-RPC request with the JSON-RPC error for it", async () => {
    const post = (body: string, headers: Record<string, string> = {}) =>
      h.call("POST", "/a2a", { body, headers: { "a2a-version": "1.0", ...headers } });
    const notJson = await post("{ nope");
    expect([notJson.status, notJson.json.error.code]).toEqual([400, -32700]);
    const batch = await post("[]");
    expect([batch.status, batch.json.error.code]).toEqual([400, -32600]);
    const noId = await post(JSON.stringify({ jsonrpc: "2.0", method: "SendMessage", params: {} }));
    expect([noId.status, noId.json.error.code, fieldsOf(noId.json.error.data)]).toEqual([400, -32600, ["id"]]);
    const text = await post("{}", { "content-type": "text/plain" });
    expect([text.status, text.json.error.code]).toEqual([415, -32600]);
    const huge = await post(
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { pad: "x".repeat(70_000) } }),
    );
    expect([huge.status, huge.json.error.code]).toEqual([413, -32600]);
    expect((await h.call("GET", "/a2a")).status).toBe(405);
  });
});
