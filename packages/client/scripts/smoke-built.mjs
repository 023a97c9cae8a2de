// Proves the built package works from plain Node ESM (no TypeScript, no bundler, no vitest):
// `pnpm --filter @vitrina/client build && node packages/client/scripts/smoke-built.mjs`.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const dist = new URL("../dist/", import.meta.url);
const vectors = JSON.parse(readFileSync(new URL("../test/signature-vectors.json", import.meta.url), "utf8")).cases;
const nodeEntry = await import(new URL("node.js", dist).href);
const portable = await import(new URL("index.js", dist).href);
// Self-reference by package name resolves through the exports map's "node" condition.
const byName = await import("@vitrina/client");
assert.equal(byName.signLead, nodeEntry.signLead, "the node condition should pick dist/node.js");

for (const [label, client] of [
  ["dist/node.js", nodeEntry],
  ["dist/index.js", portable],
]) {
  for (const v of vectors) {
    const { headers } = client.signLead({ connectorId: "c", secret: v.secret, body: v.body, timestamp: v.timestamp });
    assert.equal(headers["X-Vitrina-Signature"], v.signature, `${label} signLead: ${v.name}`);
  }
  const payload = JSON.stringify({ id: "evt_1", type: "quote.created", created: new Date().toISOString(), data: {} });
  const header = client.signWebhook({ payload, secret: "whsec" });
  assert.equal(client.verifyWebhook({ payload, header, secret: "whsec" }).id, "evt_1", `${label} verifyWebhook`);
  assert.throws(() => client.verifyWebhook({ payload, header, secret: "nope" }), client.WebhookVerificationError);
  const response = await client.createWebhookReceiver({ secret: "whsec", onEvent() {} })(
    new Request("http://localhost/", { method: "POST", body: payload, headers: { "Vitrina-Signature": header } }),
  );
  assert.equal(response.status, 200, `${label} receiver`);
  console.log(`ok ${label}`);
}

// The portable entry and every chunk it pulls in must stay free of Node built-ins.
const seen = new Set();
const visit = (file) => {
  if (seen.has(file)) return;
  seen.add(file);
  const source = readFileSync(new URL(file, dist), "utf8");
  assert.doesNotMatch(source, /from\s+["']node:/, `${file} imports a node: module`);
  for (const [, dep] of source.matchAll(/from\s+["']\.\/([^"']+)["']/g)) visit(dep);
};
visit("index.js");
console.log(`ok dist/index.js has no node: imports (${[...seen].join(", ")})`);
