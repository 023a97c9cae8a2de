import { READ_BODY } from "@vitrina/core/http";
import { staticTokenAuthenticator } from "@vitrina/core/mcp";
import { afterEach, describe, expect, it } from "vitest";
import { firstOf, onlyReadsHeaders, type Authenticator } from "../../src/auth/principal.js";
import { rejectEveryone } from "../../src/auth/authenticators.js";
import { ALL_SCOPES, startMcpHarness, TOKENS, type McpHarness } from "./support/mcp-harness.js";

// POST /mcp reads its body straight off http-node's request (no web Request or Response with body
// streams) when every authenticator is core's own; an embedder's authenticator must still be handed
// a real web Request, never the binding's stand-in.

let h: McpHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const queryCatalog = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "query_catalog", arguments: {} } };

describe("which authenticators may see a binding's direct request", () => {
  it("core's own are marked as reading headers only; a composition is, only when every part is", () => {
    const ours = staticTokenAuthenticator({});
    const theirs: Authenticator = async () => null;
    expect(onlyReadsHeaders(ours)).toBe(true);
    expect(onlyReadsHeaders(rejectEveryone)).toBe(true);
    expect(onlyReadsHeaders(firstOf(ours, rejectEveryone))).toBe(true);
    expect(onlyReadsHeaders(theirs)).toBe(false);
    expect(onlyReadsHeaders(firstOf(ours, theirs))).toBe(false);
  });
});

describe("POST /mcp over http-node", () => {
  it("hands an embedder's authenticator a real web Request, and still reads the body and answers", async () => {
    const seen: Array<{ direct: boolean; isRequest: boolean }> = [];
    let workspaceId = "";
    h = await startMcpHarness({
      authenticate: async (request) => {
        seen.push({ direct: READ_BODY in request, isRequest: request instanceof Request });
        if (request.headers.get("authorization") !== `Bearer ${TOKENS.full}`) return null;
        return { kind: "static", workspaceId, keyId: "key-embedder", scopes: ALL_SCOPES };
      },
    });
    workspaceId = h.workspace.id;
    const answer = await h.post(queryCatalog);
    expect(answer.status).toBe(200);
    expect(answer.json.result.structuredContent.items.length).toBeGreaterThan(0);
    expect(seen).toEqual([{ direct: false, isRequest: true }]);

    const refused = await h.post(queryCatalog, { authorization: "Bearer nope" });
    expect(refused.status).toBe(401);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.direct).toBe(false);
  });

  it("answers with core's own authenticator, refusals included, the same way", async () => {
    h = await startMcpHarness();
    const answer = await h.post(queryCatalog);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(Number(answer.headers.get("content-length"))).toBeGreaterThan(0);
    expect(answer.json.result.structuredContent.items.length).toBeGreaterThan(0);
    expect((await h.post(queryCatalog, { authorization: "Bearer nope" })).status).toBe(401);
    expect((await h.post(queryCatalog, { "content-type": "text/plain" })).status).toBe(415);
    expect((await h.post("{not json")).status).toBe(400);
  });
});
