import { memoryStorage } from "@vitrina/adapter-memory";
import { staticTokenAuthenticator } from "@vitrina/core/mcp";
import { fixtures } from "@vitrina/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Storage } from "@vitrina/core";
import { ALL_SCOPES, catalogItem, startMcpHarness, TOKENS, type McpHarness } from "./support/mcp-harness.js";

// One SDK server answers every request of /mcp (RequestMultiplexer): requests from different
// callers run through it at once, and clients reuse the same JSON-RPC ids. Each answer must go to
// the request that asked, under its own id, computed for its own caller.
const OTHER_TOKEN = "vk_test_other_workspace";
let h: McpHarness;
/** Added to every repository call's wait, for a test that needs a request to stay in flight. */
let extraDelayMs = 0;

/**
 * Every repository call waits a few milliseconds first, as a database round trip would: without
 * that the memory adapter answers within one turn of the event loop, and requests never overlap.
 */
function slowed(storage: Storage): Storage {
  const slowRepositories = <T extends object>(repositories: T): T =>
    new Proxy(repositories, {
      get(target, name) {
        const repository = Reflect.get(target, name) as unknown;
        if (name === "transaction" || typeof repository !== "object" || repository === null) return repository;
        return new Proxy(repository, {
          get(repo, method) {
            const call = Reflect.get(repo, method) as unknown;
            if (typeof call !== "function") return call;
            return async (...args: unknown[]) => {
              await new Promise((resolve) => setTimeout(resolve, 2 + Math.random() * 3 + extraDelayMs));
              return call.apply(repo, args);
            };
          },
        });
      },
    });
  return Object.assign(slowRepositories(storage), {
    transaction: <R>(work: (tx: Parameters<Parameters<Storage["transaction"]>[0]>[0]) => Promise<R>) =>
      storage.transaction((tx) => work(slowRepositories(tx))),
  }) as Storage;
}

beforeAll(async () => {
  const storage = memoryStorage();
  const f = fixtures();
  const other = f.workspace();
  await storage.workspaces.insert(other);
  await storage.catalogItems.upsert(
    catalogItem(f, other.id, { sku: "OTHER-1", name: "Casa en otro espacio de trabajo", price: 1_000, stock: 1 }),
  );
  let mainWorkspaceId = "";
  h = await startMcpHarness(
    {
      // Read per request: the harness creates the main workspace after this function is built.
      authenticate: (request) =>
        staticTokenAuthenticator({
          [TOKENS.full]: { workspaceId: mainWorkspaceId, keyId: "key-main", scopes: ALL_SCOPES },
          [OTHER_TOKEN]: { workspaceId: other.id, keyId: "key-other", scopes: ALL_SCOPES },
        })(request),
    },
    { storage: slowed(storage) },
  );
  mainWorkspaceId = h.workspace.id;
});
afterAll(() => h.close());

const queryCatalog = (id: string | number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "query_catalog", arguments: {} },
});
const skus = (answer: { json: any }) =>
  (answer.json.result.structuredContent.items as Array<{ sku: string }>).map((i) => i.sku);

describe("one MCP server for every request", () => {
  it("answers concurrent callers that use the same JSON-RPC id, each with its own workspace's result", async () => {
    const callers = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? TOKENS.full : OTHER_TOKEN));
    const answers = await Promise.all(
      callers.map((token, i) => h.post(queryCatalog(i % 4 < 2 ? 1 : "same"), { authorization: `Bearer ${token}` })),
    );
    answers.forEach((answer, i) => {
      expect(answer.status).toBe(200);
      expect(answer.json.id).toBe(i % 4 < 2 ? 1 : "same");
      if (callers[i] === OTHER_TOKEN) expect(skus(answer)).toEqual(["OTHER-1"]);
      else expect(skus(answer)).not.toContain("OTHER-1");
    });
  });

  it("gives a tool error the caller's id, and keeps answering afterwards", async () => {
    const bad = await h.post({ ...queryCatalog(42), params: { name: "query_catalog", arguments: { limit: -1 } } });
    expect(bad.status).toBe(200);
    expect(bad.json.id).toBe(42);
    expect(bad.json.result?.isError ?? bad.json.error).toBeTruthy();
    const unknownMethod = await h.post({ jsonrpc: "2.0", id: "m", method: "resources/list" });
    expect(unknownMethod.json).toMatchObject({ id: "m", error: { code: -32601 } });
    expect(skus(await h.post(queryCatalog(43)))).not.toContain("OTHER-1");
  });

  it("refuses a body that is not declared as JSON with 415, and accepts a notification with 202", async () => {
    const plain = await h.post(JSON.stringify(queryCatalog(1)), { "content-type": "text/plain" });
    expect(plain.status).toBe(415);
    expect(plain.json.error).toMatchObject({ code: -32000, data: { code: "invalid_argument" } });
    const notification = await h.post({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(notification).toMatchObject({ status: 202, json: null });
  });

  it("does not let one caller's notifications/cancelled reach another caller's request", async () => {
    // Server-side ids count up from 1 per server: keep cancelling every small id until another
    // caller's request has been answered. Were a cancellation to reach it, it would never answer.
    let answered = false;
    extraDelayMs = 100;
    const inFlight = h.post(queryCatalog("victim"), { authorization: `Bearer ${OTHER_TOKEN}` });
    void inFlight.finally(() => (answered = true));
    while (!answered) {
      const cancels = Array.from({ length: 100 }, (_, i) =>
        h.post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: i + 1, reason: "x" } }),
      );
      for (const cancel of await Promise.all(cancels)) expect(cancel.status).toBe(202);
    }
    extraDelayMs = 0;
    const answer = await inFlight;
    expect(answer.json.id).toBe("victim");
    expect(skus(answer)).toEqual(["OTHER-1"]);
  });
});
