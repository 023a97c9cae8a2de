#!/usr/bin/env node
// Sends one signed sample lead to Vitrina's lead intake and prints the answer.
// Credentials: VITRINA_DEMO_CREDENTIALS=<path to { connectorId, connectorSecret, leadIntakeUrl }>,
// or VITRINA_LEAD_INTAKE_URL, VITRINA_CONNECTOR_ID and VITRINA_CONNECTOR_SECRET.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { LeadIntakeError, sendLead } from "@vitrina/client";

const { values: flags } = parseArgs({
  options: {
    phone: { type: "string", default: "+56912345678" },
    "source-lead-id": { type: "string", default: `crm-demo-${Date.now()}` },
    // A boolean of its own: Node 20's parseArgs has no automatic --no-* negation.
    "no-consent": { type: "boolean", default: false },
  },
});

function loadCredentials() {
  const file = process.env.VITRINA_DEMO_CREDENTIALS;
  const fromFile = file ? JSON.parse(readFileSync(file, "utf8")) : {};
  const credentials = {
    url: fromFile.leadIntakeUrl ?? process.env.VITRINA_LEAD_INTAKE_URL,
    connectorId: fromFile.connectorId ?? process.env.VITRINA_CONNECTOR_ID,
    secret: fromFile.connectorSecret ?? process.env.VITRINA_CONNECTOR_SECRET,
  };
  const missing = Object.entries(credentials).filter(([, value]) => !value).map(([key]) => key);
  if (missing.length > 0) {
    console.error(`missing ${missing.join(", ")}: set VITRINA_DEMO_CREDENTIALS or the VITRINA_* variables`);
    process.exit(2);
  }
  return credentials;
}

/** A real-estate lead as a portal or CRM would send it. */
function sampleLead() {
  return {
    event: "lead.created",
    source_lead_id: flags["source-lead-id"],
    contact: { phone_e164: flags.phone, name: "Camila Rojas", email: "camila.rojas@example.com" },
    context: { source: "portal-inmobiliario", campaign_id: "lanzamiento-nunoa", landing_page: "https://example.com/nunoa", catalog_item_id: "DEPTO-2D-804" },
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
  console.error(`lead rejected: HTTP ${error.status} ${error.code}: ${error.message}`);
  for (const { field, reason } of error.reasons) console.error(`  ${field}: ${reason}`);
  process.exitCode = 1;
}
