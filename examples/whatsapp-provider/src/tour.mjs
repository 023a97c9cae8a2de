#!/usr/bin/env node
// Plays the WhatsApp Cloud API against the running demo server (`pnpm start`): a CRM lead with
// consent gets its first message; the provider reports it sent, delivered and read; the person
// replies, then writes BAJA; the next lead for that phone is blocked because of the opt-out. Every
// webhook is signed with the demo channel's app secret, as Meta signs them. Credentials come from
// the file the demo wrote (.vitrina/demo-credentials.json, or VITRINA_DEMO_CREDENTIALS).
import { parseArgs } from "node:util";
import { LeadIntakeError, sendLead } from "@vitrina/client";
import { findDemoCredentials } from "../../demo-credentials.mjs";
import { postWebhook, statusBatch, textBatch } from "./provider.mjs";

/** The demo-only route listing what the demo's log transport sent (examples/server/src/demo-whatsapp.mjs). */
const SENT_MESSAGES_PATH = "/demo/whatsapp/sent";
const freshPhone = () => `+5698${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;

const { values: flags } = parseArgs({ options: { phone: { type: "string", default: freshPhone() } } });
const phone = flags.phone;

function fail(message, code = 1) {
  console.error(message);
  process.exit(code);
}

function loadCredentials() {
  const found = findDemoCredentials();
  if (found === null)
    fail("no credentials: start the demo server first (pnpm start writes .vitrina/demo-credentials.json)", 2);
  const { credentials } = found;
  if (!credentials.whatsappWebhookUrl)
    fail(`${found.path} has no WhatsApp channel: it was written by an older demo; restart it (pnpm start)`, 2);
  return credentials;
}

const c = loadCredentials();
let stepNumber = 0;
const step = (title) => console.log(`\n${++stepNumber}. ${title}`);
const show = (label, value) => console.log(`   ${label.padEnd(18)} ${value}`);

async function lead(sourceLeadId) {
  const lead = {
    event: "lead.created",
    source_lead_id: sourceLeadId,
    contact: { phone_e164: phone, name: "Camila Rojas", email: "camila.rojas@example.com" },
    context: { source: "portal-inmobiliario", campaign_id: "lanzamiento-nunoa", catalog_item_id: "DEPTO-2D-804" },
    whatsapp_consent: {
      granted: true,
      timestamp: new Date().toISOString(),
      source: "landing-form",
      purpose: "commercial_contact",
    },
    metadata: { sent_by: "@vitrina/example-whatsapp-provider" },
  };
  try {
    return await sendLead(c.leadIntakeUrl, { connectorId: c.connectorId, secret: c.connectorSecret, lead });
  } catch (error) {
    if (!(error instanceof LeadIntakeError)) throw error;
    if (error.code === "network_error") fail(`cannot reach ${c.leadIntakeUrl}: is the demo server running?`, 2);
    fail(`lead rejected: HTTP ${error.status} ${error.code}: ${error.message}`);
  }
}

const showOutbound = (response) =>
  show(
    "outbound.status",
    `${response.outbound.status}${response.outbound.reason ? ` (${response.outbound.reason})` : ""}`,
  );

/** Posts a signed batch to the demo's WhatsApp webhook and prints what the route answered. */
async function provider(label, batch) {
  const { status, body } = await postWebhook(c.whatsappWebhookUrl, c.whatsappAppSecret, batch);
  if (status !== 200) fail(`   ${label}: HTTP ${status} ${JSON.stringify(body)}`);
  const summary = [
    body.messages?.recorded && `${body.messages.recorded} message recorded`,
    body.statuses?.recorded && `${body.statuses.recorded} status recorded`,
    body.optOuts && `${body.optOuts} opt-out`,
    body.recorded === false && `nothing recorded: ${body.reason}`,
  ].filter(Boolean);
  show(label, `→ 200 ${summary.join(", ") || JSON.stringify(body)}`);
  return body;
}

/** One MCP tool call with the demo API key (the server answers plain JSON, no stream). */
async function mcpTool(name, args) {
  const response = await fetch(c.mcpUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${c.apiKey}`,
      "mcp-protocol-version": "2025-06-18",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  const reply = await response.json();
  if (reply.error || reply.result?.isError) fail(`MCP ${name} failed: ${JSON.stringify(reply.error ?? reply.result)}`);
  return reply.result.structuredContent;
}

async function firstMessageId() {
  const url = new URL(SENT_MESSAGES_PATH, c.leadIntakeUrl);
  url.searchParams.set("to", phone);
  const response = await fetch(url, { headers: { authorization: `Bearer ${c.apiKey}` } });
  if (response.status !== 200) fail(`GET ${url.pathname}: HTTP ${response.status}`);
  const [message] = (await response.json()).data;
  if (message === undefined)
    fail(
      "the demo's log transport sent nothing to this phone: with WHATSAPP_ACCESS_TOKEN set the Cloud API sends it, and real statuses come from Meta; run the tour against a receive-only demo (unset it)",
    );
  return message;
}

async function printThread(contactId) {
  const { items } = await mcpTool("list_conversations", {});
  const conversation = items.find((item) => item.contact_id === contactId);
  if (conversation === undefined) fail(`no conversation for contact ${contactId}`);
  const history = await mcpTool("get_conversation_history", { conversation_id: conversation.id });
  show("thread", `${conversation.id} (MCP get_conversation_history, oldest first)`);
  for (const m of [...history.items].reverse()) show("", `${m.created_at}  ${m.sender.padEnd(8)} ${m.content}`);
}

console.log(`Playing WhatsApp against ${c.whatsappWebhookUrl}
   phone number id:   ${c.whatsappPhoneNumberId}   (every webhook signed: X-Hub-Signature-256 with the app secret)
   the person:        ${phone}`);

step(`A CRM sends a lead with WhatsApp consent for ${phone}`);
const sourceLeadId = `wa-tour-${Date.now()}`;
const first = await lead(sourceLeadId);
show("lead", `${first.lead_event_id} (contact ${first.contact_id})`);
showOutbound(first);

step("The provider id of the first message (the demo's log transport answers demo-<uuid>)");
const sent = await firstMessageId();
show("message", `${sent.provider_message_id}  template ${sent.template}, to ${sent.to}`);

step("WhatsApp reports it sent, delivered and read (three signed status webhooks)");
for (const status of ["sent", "delivered", "read"])
  await provider(
    status,
    statusBatch(c.whatsappPhoneNumberId, [{ id: sent.provider_message_id, status, phoneE164: phone }]),
  );
const again = await lead(sourceLeadId);
show("lead resent", `duplicate: ${again.duplicate}`);
showOutbound(again);

step(`${phone} replies (a signed inbound text): the reply lands in the lead's thread`);
await provider(
  "reply",
  textBatch(c.whatsappPhoneNumberId, { phoneE164: phone, text: "Hola, ¿el depto 804 sigue disponible?" }),
);
await printThread(first.contact_id);

step(`${phone} writes BAJA: an opt-out keyword`);
await provider("BAJA", textBatch(c.whatsappPhoneNumberId, { phoneE164: phone, text: "BAJA" }));

step("The CRM sends another lead with consent for the same phone");
const blocked = await lead(`wa-tour-${Date.now()}-again`);
showOutbound(blocked);
if (blocked.outbound.status !== "blocked" || !/opted out/.test(blocked.outbound.reason ?? ""))
  fail("expected outbound.status blocked because of the opt-out");
console.log(
  `\nBlocked because ${phone} opted out by writing BAJA, although the lead carried consent: an opt-out wins.`,
);
