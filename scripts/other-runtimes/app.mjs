// Run by Bun or Deno (never Node): the built packages served by the runtime's own server
// (`Bun.serve` / `Deno.serve`), with a signed lead, an MCP call and a webhook delivery over real
// sockets on 127.0.0.1. Core is written on Web APIs only; this keeps it so. Exits 0 on success.
import { memoryStorage } from "@vitrina/adapter-memory";
import { sendLead, verifyWebhook } from "@vitrina/client";
import { createVitrina, SCOPES, silentLogger } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";

const runtime = globalThis.Bun ? `Bun ${globalThis.Bun.version}` : `Deno ${globalThis.Deno.version.deno}`;

/** The runtime's own HTTP server on 127.0.0.1, port chosen by the system. */
function listen(handler) {
  if (globalThis.Bun) {
    const server = globalThis.Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: handler });
    return { url: `http://127.0.0.1:${server.port}`, close: () => server.stop(true) };
  }
  const server = globalThis.Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

function check(condition, what, detail) {
  if (!condition) throw new Error(`${runtime}: ${what}${detail === undefined ? "" : `: ${JSON.stringify(detail)}`}`);
}

const webhookSecret = "runtime_smoke_webhook_secret_0123456789";
let received;
const delivery = new Promise((resolve) => (received = resolve));
const receiver = listen(async (request) => {
  received({ body: await request.text(), signature: request.headers.get("vitrina-signature") });
  return new Response("ok");
});

const vitrina = createVitrina({
  storage: memoryStorage(),
  messaging: logMessagingTransport(silentLogger),
  secretBox: btoa(String.fromCharCode(...new Uint8Array(32).fill(3))),
  logger: silentLogger,
  webhooks: { allowInsecureLoopback: true },
});
const server = listen((request) => vitrina.handler(request));
const worker = vitrina.outbox.startWorker();
try {
  const workspace = await vitrina.workspaces.create({ name: "Runtimes", ownerUserId: "owner" });
  const { connector, secret } = await vitrina.connectors.create(
    { userId: "owner" },
    { workspaceId: workspace.id, name: "CRM", systemId: "crm" },
  );
  const { secret: apiKey } = await vitrina.apiKeys.issue({ userId: "owner" }, workspace.id, {
    name: "smoke",
    scopes: [...SCOPES],
  });
  await vitrina.webhooks.create(workspace.id, {
    url: `${receiver.url}/hooks`,
    events: ["conversation.started"],
    secret: webhookSecret,
  });

  // A signed lead, as a CRM sends it.
  const accepted = await sendLead(`${server.url}/functions/v1/lead-intake`, {
    connectorId: connector.id,
    secret,
    lead: {
      event: "lead.created",
      source_lead_id: "runtime-smoke-1",
      contact: { phone_e164: "+56911112222", name: "Ana" },
      whatsapp_consent: { granted: true, timestamp: new Date().toISOString(), source: "form" },
    },
  });
  check(accepted.outbound.status === "sent", "lead accepted and first message sent", accepted);

  // An MCP tools/call, as a plain HTTP client sends it.
  const mcp = await fetch(`${server.url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "check_stock", arguments: { sku: "MIR-101" } },
    }),
  });
  const answer = await mcp.json();
  check(mcp.status === 200 && answer.id === 1 && answer.result?.isError !== true, "MCP tools/call answered", answer);

  // The lead's conversation.started, delivered by the outbox worker and verified as a receiver does.
  // The deadline's timer is cleared once the delivery is in: left pending, it kept the process alive
  // for its whole 20 s after the check had passed (40 s of every `pnpm test`, one per runtime).
  let deadline;
  const { body, signature } = await Promise.race([
    delivery,
    new Promise((_, reject) => {
      deadline = setTimeout(() => reject(new Error(`${runtime}: no webhook delivery`)), 20_000);
    }),
  ]).finally(() => clearTimeout(deadline));
  const event = verifyWebhook({ payload: body, header: signature, secret: webhookSecret });
  check(event.type === "conversation.started", "webhook delivered and verified", event);
  console.log(
    `${runtime}: lead 200 (first message sent), MCP tools/call 200, conversation.started delivered and verified`,
  );
} finally {
  await worker.stop();
  await vitrina.close();
  await server.close();
  await receiver.close();
}
