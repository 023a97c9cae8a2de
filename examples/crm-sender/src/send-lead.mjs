#!/usr/bin/env node
// Sends one signed sample lead to Vitrina's lead intake and prints the answer.
// Credentials: VITRINA_LEAD_INTAKE_URL, VITRINA_CONNECTOR_ID and VITRINA_CONNECTOR_SECRET; else
// the file the demo server writes (.vitrina/demo-credentials.json, or VITRINA_DEMO_CREDENTIALS).
import { parseArgs } from "node:util";
import { LeadIntakeError, sendLead } from "@vitrina/client";
import { findDemoCredentials } from "../../demo-credentials.mjs";

// A fresh phone per run by default: Vitrina welcomes a person once a day (one first message per
// contact within 24 h), so resending the same phone in the tour would show `blocked`, not a new welcome.
const freshPhone = () => `+5699${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;

const { values: flags } = parseArgs({
  options: {
    phone: { type: "string", default: freshPhone() },
    "source-lead-id": { type: "string", default: `crm-demo-${Date.now()}` },
    // A boolean of its own: Node 20's parseArgs has no automatic --no-* negation.
    "no-consent": { type: "boolean", default: false },
  },
});

function loadCredentials() {
  const fromEnv = {
    url: process.env.VITRINA_LEAD_INTAKE_URL,
    connectorId: process.env.VITRINA_CONNECTOR_ID,
    secret: process.env.VITRINA_CONNECTOR_SECRET,
  };
  if (Object.values(fromEnv).every(Boolean)) return fromEnv;
  const found = findDemoCredentials();
  if (found === null) {
    console.error(
      "no credentials: start the demo server first (pnpm start writes .vitrina/demo-credentials.json), or set VITRINA_LEAD_INTAKE_URL, VITRINA_CONNECTOR_ID and VITRINA_CONNECTOR_SECRET",
    );
    process.exit(2);
  }
  const { leadIntakeUrl, connectorId, connectorSecret } = found.credentials;
  return { url: leadIntakeUrl, connectorId, secret: connectorSecret };
}

/** A real-estate lead as a portal or CRM would send it. */
function sampleLead() {
  return {
    event: "lead.created",
    source_lead_id: flags["source-lead-id"],
    contact: { phone_e164: flags.phone, name: "Camila Rojas", email: "camila.rojas@example.com" },
    context: {
      source: "portal-inmobiliario",
      campaign_id: "lanzamiento-nunoa",
      landing_page: "https://example.com/nunoa",
      catalog_item_id: "DEPTO-2D-804",
    },
    qualification: { monthly_income: 2_400_000 },
    whatsapp_consent: {
      granted: !flags["no-consent"],
      timestamp: new Date().toISOString(),
      source: "landing-form",
      purpose: "commercial_contact",
    },
    metadata: { sent_by: "@vitrina/example-crm-sender" },
  };
}

const { url, connectorId, secret } = loadCredentials();
try {
  const response = await sendLead(url, { connectorId, secret, lead: sampleLead() });
  console.log(JSON.stringify(response, null, 2));
} catch (error) {
  if (!(error instanceof LeadIntakeError)) throw error;
  if (error.code === "network_error") {
    console.error(
      `cannot reach ${url}: is the demo server running? (${error.cause?.cause?.code ?? error.cause?.cause?.message ?? error.message})`,
    );
    process.exit(2);
  }
  console.error(`lead rejected: HTTP ${error.status} ${error.code}: ${error.message}`);
  for (const { field, reason } of error.reasons) console.error(`  ${field}: ${reason}`);
  process.exitCode = 1;
}
