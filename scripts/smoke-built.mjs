// Proves the BUILT packages work from a plain Node ESM script (no vitest, no TypeScript, no
// aliases): the shape a user's `import` sees after install. Run by `pnpm test` after the build.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { memoryStorage } from "@vitrina/adapter-memory";
import { vitrinaConsole } from "@vitrina/console";
import { createVitrina, silentLogger } from "@vitrina/core";
import { staticTokenAuthenticator } from "@vitrina/core/mcp";
import { logMessagingTransport } from "@vitrina/core/demo";
import { runStorageContract } from "@vitrina/core/testing";
import { serve } from "@vitrina/http-node";

assert.equal(typeof runStorageContract, "function");
const vitrina = createVitrina({
  storage: memoryStorage(),
  messaging: logMessagingTransport(silentLogger),
  secretBox: Buffer.alloc(32, 1).toString("base64"),
  // OAuth on, so the built package's jose and MCP SDK imports are exercised too.
  oauth: { authorize: async () => new Response("login", { status: 401 }) },
  mcp: { authenticate: staticTokenAuthenticator({ vk_smoke: { workspaceId: "ws", keyId: "k", scopes: [] } }) },
  // The built console package, mounted by the built core through @vitrina/core/admin.
  console: vitrinaConsole({ signIn: async () => null }),
});
const workspace = await vitrina.workspaces.create({ name: "Smoke", ownerUserId: "owner" });
const { connector, secret } = await vitrina.connectors.create(
  { userId: "owner" },
  { workspaceId: workspace.id, name: "Smoke", systemId: "smoke" },
);
const server = await serve(vitrina.handler, { port: 0, handleSignals: false });
try {
  const body = JSON.stringify({
    event: "lead.created",
    source_lead_id: "smoke-1",
    contact: { phone_e164: "+56911112222" },
  });
  const timestamp = String(Date.now());
  const response = await fetch(`${server.url}/functions/v1/lead-intake`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-vitrina-connector-id": connector.id,
      "x-vitrina-timestamp": timestamp,
      "x-vitrina-signature": createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex"),
    },
    body,
  });
  const json = await response.json();
  assert.equal(response.status, 200, JSON.stringify(json));
  assert.equal(json.accepted, true);
  assert.equal(json.outbound.status, "blocked");
  const jwks = await (await fetch(`${server.url}/.well-known/jwks.json`)).json();
  assert.equal(jwks.keys[0].alg, "ES256");
  const catalog = await fetch(`${server.url}/v1/capabilities`);
  assert.equal(catalog.status, 200);
  assert.equal((await catalog.json()).capabilities.length, 6);
  const again = await fetch(`${server.url}/v1/capabilities`, {
    headers: { "if-none-match": catalog.headers.get("etag") },
  });
  assert.equal(again.status, 304);

  // The MCP server, through the built core and the SDK it depends on.
  const listed = await fetch(`${server.url}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: "Bearer vk_smoke",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  const tools = await listed.json();
  assert.equal(listed.status, 200, JSON.stringify(tools));
  assert.equal(tools.result.tools.length, 8);

  const signIn = await fetch(`${server.url}/console/integrations`, { redirect: "manual" });
  assert.equal(signIn.status, 303);
  assert.equal(signIn.headers.get("location"), "/console/sign-in?return_to=%2Fconsole%2Fintegrations");
} finally {
  await server.close();
}
// The installed `vitrina` binary runs from plain Node and migrates an embedded database.
const { execFileSync } = await import("node:child_process");
const { mkdtempSync, rmSync } = await import("node:fs");
const { tmpdir } = await import("node:os");
const dataDir = mkdtempSync(`${tmpdir()}/vitrina-smoke-`);
try {
  // The committed bin launcher (what pnpm links as `vitrina`) runs the built CLI.
  const cli = new URL("../packages/http-node/bin/vitrina.js", import.meta.url).pathname;
  const env = { ...process.env, VITRINA_DATA_DIR: dataDir, DATABASE_URL: "" };
  assert.match(execFileSync(process.execPath, [cli, "--version"], { env, encoding: "utf8" }), /^\d+\.\d+\.\d+/);
  assert.match(
    execFileSync(process.execPath, [cli, "migrate"], { env, encoding: "utf8" }),
    /migrations applied: embedded PGlite/,
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(
  "smoke: built packages import, serve a signed lead, the capability catalog and MCP tools/list and the console from plain Node; the vitrina CLI migrates",
);
