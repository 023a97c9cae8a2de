import { memoryStorage } from "@vitrina/adapter-memory";
import { signLead } from "@vitrina/client";
import { createVitrina, silentLogger, type Storage, type VitrinaOptions } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { createManualClock } from "@vitrina/core/testing";
import pino from "pino";

export const SECRET_BOX_KEY = Buffer.alloc(32, 5).toString("base64");
export const OTHER_SECRET_BOX_KEY = Buffer.alloc(32, 6).toString("base64");

/** One parsed pino line: numeric `level` (20 debug … 50 error), `msg`, and the structured fields. */
export type PinoLine = Record<string, unknown> & { level: number; msg: string };

/** A real pino logger writing JSON lines into memory, so tests see exactly what pino received. */
export function capturePino() {
  const lines: PinoLine[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => void lines.push(JSON.parse(line) as PinoLine) });
  return { logger, lines, text: () => JSON.stringify(lines) };
}

/** A Vitrina over memory storage with a manual clock and one workspace and connector. */
export async function observedVitrina(options: Partial<VitrinaOptions> & { storage?: Storage } = {}) {
  const captured = capturePino();
  const clock = createManualClock(Date.parse("2026-03-01T12:00:00Z"));
  const vitrina = createVitrina({
    storage: memoryStorage(),
    messaging: logMessagingTransport(silentLogger),
    secretBox: SECRET_BOX_KEY,
    clock,
    logger: captured.logger,
    ...options,
  });
  const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner" });
  const { connector, secret } = await vitrina.connectors.create(
    { userId: "owner" },
    { workspaceId: workspace.id, name: "HubSpot", systemId: "hubspot" },
  );

  /** Posts a lead signed with the connector's secret (or `over`), straight to the handler. */
  function postLead(
    body: string,
    over: { secret?: string; connectorId?: string; headers?: Record<string, string> } = {},
  ) {
    const signed = signLead({
      connectorId: over.connectorId ?? connector.id,
      secret: over.secret ?? secret,
      body,
      timestamp: clock.now().getTime(),
    });
    return vitrina.handler(
      new Request("http://vitrina.test/functions/v1/lead-intake", {
        method: "POST",
        // The signed headers carry Content-Type already.
        headers: { ...signed.headers, ...over.headers },
        body,
      }),
    );
  }
  return { ...captured, vitrina, clock, workspace, connector, secret, postLead };
}

export const PII_MARKER = "pii-marker-7f3a";

/** A valid lead whose every free-text field carries `PII_MARKER`, to prove no body reaches the logs. */
export function leadWithMarkers(over: Record<string, unknown> = {}) {
  return {
    event: "lead.created",
    source_lead_id: `crm-${PII_MARKER}-${Math.random().toString(36).slice(2)}`,
    contact: { phone_e164: "+56912345678", name: `María ${PII_MARKER}`, email: `${PII_MARKER}@example.cl` },
    qualification: { monthly_income: 1_800_000 },
    whatsapp_consent: {
      granted: true,
      timestamp: "2026-03-01T11:00:00Z",
      source: "landing-form",
      purpose: "sales follow-up",
    },
    metadata: { note: PII_MARKER },
    ...over,
  };
}
