// The app each case of the install test compiles and runs, as a new user would write it against the
// packed packages: a signed lead in over a real socket, the first message, and the
// `conversation.started` webhook it causes out to a receiver that verifies its signature; then the
// connector on the web console's page (the console package mounted by core, a peer pair).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { sendLead, verifyWebhook, type LeadPayload } from "@vitrina/client";
import { vitrinaConsole } from "@vitrina/console";
import { createVitrina, silentLogger } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { memoryStorage } from "@vitrina/adapter-memory";
import { serveVitrina } from "@vitrina/http-node";

const webhookSecret = "install_test_webhook_secret_0123456789";

async function main(): Promise<void> {
  let deliver: (delivery: { body: string; signature: string }) => void = () => {};
  const delivered = new Promise<{ body: string; signature: string }>((resolve) => (deliver = resolve));
  const receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      res.end();
      deliver({ body, signature: String(req.headers["vitrina-signature"]) });
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));

  let workspaceId = "";
  const vitrina = createVitrina({
    storage: memoryStorage(),
    messaging: logMessagingTransport(silentLogger),
    secretBox: Buffer.alloc(32, 1).toString("base64"),
    logger: silentLogger,
    webhooks: { allowInsecureLoopback: true },
    console: vitrinaConsole({ signIn: async () => ({ userId: "owner", workspaceId }) }),
  });
  const workspace = await vitrina.workspaces.create({ name: "Install test", ownerUserId: "owner" });
  workspaceId = workspace.id;
  const { connector, secret } = await vitrina.connectors.create(
    { userId: "owner" },
    { workspaceId: workspace.id, name: "CRM", systemId: "crm" },
  );
  await vitrina.webhooks.create(workspace.id, {
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`,
    events: ["conversation.started"],
    secret: webhookSecret,
  });
  const server = await serveVitrina(vitrina, { port: 0, handleSignals: false });
  try {
    const lead: LeadPayload = {
      event: "lead.created",
      source_lead_id: "install-1",
      contact: { phone_e164: "+56911112222", name: "Ana" },
      whatsapp_consent: { granted: true, timestamp: new Date().toISOString(), source: "form" },
    };
    const accepted = await sendLead(`${server.url}/functions/v1/lead-intake`, {
      connectorId: connector.id,
      secret,
      lead,
    });
    if (accepted.outbound.status !== "sent") throw new Error(`first message: ${JSON.stringify(accepted.outbound)}`);
    const { body, signature } = await delivered;
    const event = verifyWebhook({ payload: body, header: signature, secret: webhookSecret }) as { type: string };
    if (event.type !== "conversation.started") throw new Error(`unexpected event ${event.type}`);
    const signedIn = await fetch(`${server.url}/console/sign-in`, { redirect: "manual" });
    const cookie = (signedIn.headers.get("set-cookie") ?? "").split(";")[0]!;
    const page = await (await fetch(`${server.url}/console/integrations`, { headers: { cookie } })).text();
    if (!page.includes(connector.id)) throw new Error(`the console does not list the connector: ${page.slice(0, 200)}`);
  } finally {
    await server.close();
    receiver.close();
  }
}

main().then(
  () => console.log("round trip: lead accepted, conversation.started delivered and verified"),
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
