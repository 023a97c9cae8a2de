#!/usr/bin/env node
// The demo server the README's first command runs. Storage: DATABASE_URL → PostgreSQL; else
// embedded PGlite in VITRINA_DATA_DIR (default .vitrina/); `--memory` or VITRINA_STORAGE=memory.
// Configuration by environment:
//   PORT (8787), HOST (127.0.0.1), VITRINA_SECRET_KEY (base64, 32 bytes; else kept in the data dir),
//   VITRINA_DEMO_CREDENTIALS (write the demo credentials there as JSON),
//   VITRINA_DEMO_OPT_OUT_PHONES (comma-separated E.164 phones to mark as opted out),
//   WHATSAPP_ACCESS_TOKEN + WHATSAPP_PHONE_NUMBER_ID (send for real through the WhatsApp Cloud API).
import { serveVitrina } from "@vitrina/http-node";
import { createDemo, demoCredentials, writeDemoCredentials } from "./demo.mjs";

const demo = await createDemo({ memory: process.argv.includes("--memory") });
// serveVitrina runs the outbox worker in this process: webhooks go out milliseconds after a commit.
const server = await serveVitrina(demo.vitrina, {
  port: Number(process.env.PORT ?? 8787),
  host: process.env.HOST ?? "127.0.0.1",
  onShutdown: () => demo.vitrina.close(),
});
const credentials = demoCredentials(demo, server.url);
if (process.env.VITRINA_DEMO_CREDENTIALS) await writeDemoCredentials(process.env.VITRINA_DEMO_CREDENTIALS, credentials);

console.log(`Vitrina demo server listening on ${server.url}
  storage:          ${demo.storageName}
  messaging:        ${demo.messagingName}
  workspace:        ${credentials.workspaceId}
  lead intake URL:  ${credentials.leadIntakeUrl}
  capabilities:     ${server.url}/v1/capabilities
  connector id:     ${credentials.connectorId}
  connector secret: ${credentials.connectorSecret}   (${demo.secretRotated ? "rotated on start: the stored one can't be shown again" : "shown once; keep it secret"})
  webhooks API:     ${credentials.webhooksUrl}
  API key:          ${credentials.apiKey}   (demo key: every scope; shown once)
  MCP URL:          ${credentials.mcpUrl}
  opted-out phones: ${demo.optOuts.join(", ")}
  MCP OAuth:        ${server.url}/.well-known/oauth-authorization-server   (consent page signs in as the demo owner)
${process.env.VITRINA_DEMO_CREDENTIALS ? `  credentials file: ${process.env.VITRINA_DEMO_CREDENTIALS}\n` : ""}Send a signed lead:  node examples/crm-sender/src/send-lead.mjs   (with VITRINA_DEMO_CREDENTIALS set)
Subscribe a local receiver (examples/webhook-receiver on :8788):
  curl -X POST ${credentials.webhooksUrl} -H "Authorization: Bearer ${credentials.apiKey}" -H "Content-Type: application/json" \\
    -d '{"url":"http://127.0.0.1:8788/","events":["conversation.started"],"secret":"<24+ random characters>"}'
Stop with Ctrl-C.`);
