// What the load generator sends. A profile turns a request number into { method, path, headers, body },
// built inside the generator process so that its cost is counted as client CPU.
import { createHmac } from "node:crypto";

function leadBody(run, i) {
  return JSON.stringify({
    event: "lead.created",
    source_lead_id: `bench-${run}-${i}`,
    contact: {
      phone_e164: `+569${String(10_000_000 + i).slice(-8)}`,
      name: "Bench Lead",
      email: `lead${i}@example.cl`,
    },
    context: { source: "bench", campaign_id: "load" },
    qualification: { monthly_income: 1_500_000 },
    whatsapp_consent: { granted: true, timestamp: "2026-01-01T00:00:00Z", source: "bench", purpose: "sales" },
    metadata: { pad: "x".repeat(600) },
  });
}

/** A GET of the server's URL: the cheapest request, for the bare fixed-200 server. */
function fixedProfile(target) {
  const path = new URL(target.url).pathname;
  return () => ({ method: "GET", path, headers: {}, body: undefined });
}

/** Distinct signed leads (a fresh source_lead_id, phone and email each time), as a connector sends them. */
function leadProfile(target) {
  const path = new URL(target.url).pathname;
  const run = `${Date.now()}-${process.pid}`;
  return (i) => {
    const body = leadBody(run, i);
    const timestamp = String(Date.now());
    return {
      method: "POST",
      path,
      headers: {
        "content-type": "application/json",
        "x-vitrina-connector-id": target.connectorId,
        "x-vitrina-timestamp": timestamp,
        "x-vitrina-signature": createHmac("sha256", target.secret).update(`${timestamp}.${body}`).digest("hex"),
      },
      body,
    };
  };
}

export const profiles = { fixed: fixedProfile, lead: leadProfile };
