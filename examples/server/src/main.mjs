#!/usr/bin/env node
// The demo server the README's first command runs. Storage: DATABASE_URL → PostgreSQL; else
// embedded PGlite in VITRINA_DATA_DIR (default .vitrina/); `--memory` or VITRINA_STORAGE=memory.
// Configuration by environment:
//   PORT (8787), HOST (127.0.0.1), VITRINA_SECRET_KEY (base64, 32 bytes; else kept in the data dir; required with DATABASE_URL),
//   VITRINA_DEMO_CREDENTIALS (where to write the demo credentials; default <data dir>/demo-credentials.json),
//   VITRINA_DEMO_OPT_OUT_PHONES (comma-separated E.164 phones to mark as opted out),
//   VITRINA_REST=1 (the REST surface), VITRINA_A2A=1 (the A2A agent card and endpoint),
//   WHATSAPP_ACCESS_TOKEN + WHATSAPP_PHONE_NUMBER_ID (send for real through the WhatsApp Cloud API),
//   WHATSAPP_APP_SECRET, WHATSAPP_VERIFY_TOKEN (the Meta app's; generated and kept in the credentials
//   file when unset), WHATSAPP_GRAPH_URL (the Graph API's base URL, default https://graph.facebook.com).
import { relative } from "node:path";
import { VitrinaError } from "@vitrina/core";
import { serveVitrina } from "@vitrina/http-node";
import { demoCredentialsPath } from "../../demo-credentials.mjs";
import { createDemo, demoCredentials, demoWebhookSecret, writeDemoCredentials } from "./demo.mjs";

/** The examples/webhook-receiver default port, which the printed subscribe command points at. */
const RECEIVER_PORT = 8788;
const port = Number(process.env.PORT ?? 8787);
const host = process.env.HOST ?? "127.0.0.1";

/** Startup problems a user fixes by changing a setting: one line saying which, not a stack trace. */
function exitWithHint(error) {
  if (error?.code === "EADDRINUSE") {
    console.error(
      `port ${port} on ${host} is already in use (another demo still running?): stop it, or set PORT to a free port, e.g. PORT=${port + 10} pnpm start`,
    );
  } else if (error?.code === "EACCES") {
    console.error(
      `not allowed to listen on port ${port} on ${host}: set PORT to a port above 1024, e.g. PORT=8787 pnpm start`,
    );
  } else if (error instanceof VitrinaError) {
    // A storage error's message is generic (it can reach HTTP callers); what the driver said is its cause.
    const cause = error.code.startsWith("storage_") && error.cause instanceof Error ? error.cause : null;
    const detail = cause === null ? "" : ` (${cause.message || cause.code || cause.name})`;
    console.error(`cannot start the demo: ${error.message}${detail}`);
  } else {
    throw error;
  }
  process.exit(1);
}

const credentialsPath = demoCredentialsPath();
const demo = await createDemo({ memory: process.argv.includes("--memory"), credentialsPath }).catch(exitWithHint);
// serveVitrina runs the outbox worker in this process: webhooks go out milliseconds after a commit.
const served = { handler: demo.handler, outbox: demo.vitrina.outbox, logger: demo.vitrina.logger };
const server = await serveVitrina(served, { port, host, onShutdown: () => demo.vitrina.close() }).catch(
  async (error) => {
    await demo.vitrina.close();
    exitWithHint(error);
  },
);
const credentials = demoCredentials(demo, server.url, await demoWebhookSecret(credentialsPath));
await writeDemoCredentials(credentialsPath, credentials);
const receiverUrl = `http://127.0.0.1:${RECEIVER_PORT}/`;
const subscription = JSON.stringify({
  url: receiverUrl,
  events: ["conversation.started"],
  secret: credentials.webhookSecret,
});
// On persistent storage the subscription made in an earlier run is still there: printing the curl
// again made users add a second one, and every event arrive twice. Its secret is set to the file's
// webhookSecret (the same one, unless the file was deleted), which the receiver reads.
const subscribed = (await demo.vitrina.webhooks.list(demo.workspace.id)).data.filter((s) => s.url === receiverUrl);
for (const { id } of subscribed) {
  await demo.vitrina.webhooks.update(demo.workspace.id, id, { secret: credentials.webhookSecret });
}
const subscribeStep =
  subscribed.length > 0
    ? `Subscribed already: ${subscribed.map((s) => s.id).join(", ")} (from an earlier run; running the subscribe curl again would deliver every event twice)`
    : `Subscribe it:
  curl -X POST ${credentials.webhooksUrl} -H "Authorization: Bearer ${credentials.apiKey}" -H "Content-Type: application/json" \\
    -d '${subscription}'`;

const { surfaces } = demo;
const surfaceLines = `
  REST API:         ${surfaces.rest ? `${server.url}/v1/rest/{capability}` : "off (VITRINA_REST=1 turns it on)"}
  A2A agent card:   ${surfaces.a2a ? `${server.url}/.well-known/agent-card.json   (SendMessage at ${server.url}/a2a)` : "off (VITRINA_A2A=1 turns it on)"}`;

console.log(`Vitrina demo server listening on ${server.url}
  storage:          ${demo.storageName}
  messaging:        ${demo.messagingName}
  workspace:        ${credentials.workspaceId}
  lead intake URL:  ${credentials.leadIntakeUrl}
  web console:      ${server.url}/console   (signs in as the demo owner)
  capabilities:     ${server.url}/v1/capabilities
  connector id:     ${credentials.connectorId}
  connector secret: ${credentials.connectorSecret}   (${demo.secretRotated ? "rotated on start: the stored one can't be shown again" : "shown once; keep it secret"})
  webhooks API:     ${credentials.webhooksUrl}
  API key:          ${credentials.apiKey}   (demo key: every scope; kept in the credentials file and reused at restart)
  MCP URL:          ${credentials.mcpUrl}${surfaceLines}
  opted-out phones: ${demo.optOuts.join(", ")}
  WhatsApp webhook: ${credentials.whatsappWebhookUrl}   (callback URL for the Meta app; phone number id ${credentials.whatsappPhoneNumberId}, ${demo.whatsapp.channel.sends_through === "cloud_api" ? "sends through the Cloud API" : "receive-only: sends are logged"})
  verify token:     ${demo.whatsapp.generated.verifyToken ? `${credentials.whatsappVerifyToken}   (generated, kept in the credentials file)` : "from WHATSAPP_VERIFY_TOKEN"}
  MCP OAuth:        ${server.url}/.well-known/oauth-authorization-server   (consent page signs in as the demo owner)
  credentials file: ${relative(process.cwd(), credentialsPath) || credentialsPath}   (the examples read it; mode 600)
Send a signed lead:  node examples/crm-sender/src/send-lead.mjs
Play WhatsApp:       node examples/whatsapp-provider/src/tour.mjs   (signed statuses, a reply and BAJA to the webhook)
Receive webhooks:    node examples/webhook-receiver/src/server.mjs   (listens on :${RECEIVER_PORT}, secret from the credentials file)
${subscribeStep}
Stop with Ctrl-C.`);
