// The BUILT packages deliver a signed webhook from plain Node: serveVitrina runs the worker, a
// node:http receiver verifies Vitrina-Signature with node:crypto. Run by `pnpm smoke`.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, EVENT_TYPES, silentLogger } from "@vitrina/core";
import { eventJsonSchemas } from "@vitrina/core/webhooks";
import { logMessagingTransport } from "@vitrina/core/demo";
import { serveVitrina } from "@vitrina/http-node";

// The built catalogue publishes a schema for every event type the built core emits.
assert.deepEqual(Object.keys(eventJsonSchemas()).sort(), [...EVENT_TYPES].sort());
const secret = "smoke_webhook_secret_0123456789";
let deliver;
const received = new Promise((resolve) => (deliver = resolve));
const receiver = createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    res.end();
    deliver({ body, signature: req.headers["vitrina-signature"] });
  });
});
await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));

const vitrina = createVitrina({
  storage: memoryStorage(),
  messaging: logMessagingTransport(silentLogger),
  secretBox: Buffer.alloc(32, 1).toString("base64"),
  webhooks: { allowInsecureLoopback: true },
});
const workspace = await vitrina.workspaces.create({ name: "Smoke", ownerUserId: "owner" });
const contact = await vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164: "+56911112222" });
const { secret: apiKey } = await vitrina.apiKeys.issue({ userId: "owner" }, workspace.id, {
  name: "smoke",
  scopes: ["webhooks:write"],
});
const server = await serveVitrina(vitrina, { port: 0, handleSignals: false });
try {
  const created = await fetch(`${server.url}/v1/webhooks`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ url: `http://127.0.0.1:${receiver.address().port}/`, events: ["quote.created"], secret }),
  });
  assert.equal(created.status, 201);
  await vitrina.quotes.create({
    workspaceId: workspace.id,
    contactId: contact.id,
    items: [{ sku: "A", quantity: 1, unitPrice: 1000 }],
  });
  const { body, signature } = await received;
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature);
  assert.equal(createHmac("sha256", secret).update(`${t}.${body}`).digest("hex"), v1);
  assert.equal(JSON.parse(body).data.total, 1190);
} finally {
  await server.close();
  receiver.close();
}
console.log("smoke: built packages deliver a signed webhook from plain Node");
