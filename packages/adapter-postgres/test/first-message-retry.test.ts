import { memoryStorage } from "@vitrina/adapter-memory";
import { signLead } from "@vitrina/client";
import {
  createVitrina,
  silentLogger,
  VitrinaError,
  type Logger,
  type LogFields,
  type MessagingTransport,
  type OutgoingMessage,
  type Storage,
} from "@vitrina/core";
import { createManualClock } from "@vitrina/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleLead } from "../../http-node/test/support/lead-harness.js";
import { backends, openTestStorage, waitsOnALock } from "./support.js";

// Retrying a failed first message, end to end through the admin API: it goes through the same
// locked claim as lead intake, so an opt-out always wins, and two retries send at most once. The
// races run on real PostgreSQL (READ COMMITTED) only: PGlite and memory run one thing at a time.
const RUNS = 100;

type Backend = "memory" | "PGlite" | "PostgreSQL";

async function setup(backend: Backend) {
  const opened =
    backend === "memory" ? { storage: memoryStorage() as Storage, db: null } : await openTestStorage(backend);
  const { storage } = opened;
  const clock = createManualClock("2026-03-01T12:00:00.000Z");
  const sent: OutgoingMessage[] = [];
  const control = { fail: true };
  const messaging: MessagingTransport = {
    async send(message) {
      if (control.fail) throw new VitrinaError("messaging_failed", "the provider is down");
      sent.push(message);
      return { status: "sent", providerMessageId: `wamid.${sent.length}` };
    },
  };
  // Errors the server logs (an internal error's cause), so a race that answers 500 says why.
  const loggedErrors: string[] = [];
  const logger: Logger = {
    ...silentLogger,
    error: (fields: LogFields | string, message?: string) =>
      void loggedErrors.push(`${message ?? ""} ${JSON.stringify(fields)}`.slice(0, 2000)),
    child: () => logger,
  };
  const vitrina = createVitrina({
    storage,
    messaging,
    secretBox: Buffer.alloc(32, 9).toString("base64"),
    clock,
    logger,
  });
  const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner" });
  const { connector, secret } = await vitrina.connectors.create(
    { userId: "owner" },
    { workspaceId: workspace.id, name: "CRM", systemId: "crm" },
  );
  const keyWith = async (scopes: string[]) =>
    (await vitrina.apiKeys.issue({ userId: "owner" }, workspace.id, { name: "k", scopes: scopes as any })).secret;
  const adminKey = await keyWith(["admin:read", "admin:write"]);
  const readKey = await keyWith(["admin:read"]);
  const call = async (method: string, path: string, key = adminKey) => {
    const response = await vitrina.handler(
      new Request(`http://vitrina.test${path}`, { method, headers: { authorization: `Bearer ${key}` } }),
    );
    return { status: response.status, json: (await response.json()) as any };
  };
  /** A lead whose first message failed at the provider: registered, `failed`, nothing sent. */
  const failedLead = async () => {
    const lead = sampleLead();
    const body = JSON.stringify(lead);
    const { headers } = signLead({ connectorId: connector.id, secret, body, timestamp: clock.now().getTime() });
    control.fail = true;
    const response = await vitrina.handler(
      new Request("http://vitrina.test/functions/v1/lead-intake", { method: "POST", headers, body }),
    );
    const json = (await response.json()) as any;
    expect(json.outbound.status).toBe("failed");
    control.fail = false;
    return {
      leadId: json.lead_event_id as string,
      contactId: json.contact_id as string,
      phone: lead.contact.phone_e164,
    };
  };
  const sentTo = (phone: string) => sent.filter((m) => m.to === phone).length;
  return { ...opened, vitrina, call, failedLead, sentTo, readKey, storage, loggedErrors };
}

describe.each(["memory", ...backends] as const)("retrying a failed first message on %s", (backend) => {
  let s: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    s = await setup(backend);
  });
  afterAll(async () => {
    await s.storage.close();
  });

  it("sends a failed first message again once; a second retry is refused naming the status", async () => {
    const lead = await s.failedLead();
    const retried = await s.call("POST", `/v1/leads/${lead.leadId}/retry-first-message`);
    expect(retried).toEqual({
      status: 200,
      json: {
        object: "first_message_retry",
        lead_id: lead.leadId,
        retried: true,
        outbound: { status: "sent", reason: null },
      },
    });
    expect(s.sentTo(lead.phone)).toBe(1);
    const again = await s.call("POST", `/v1/leads/${lead.leadId}/retry-first-message`);
    expect(again.status).toBe(409);
    expect(again.json.error).toMatchObject({ code: "conflict", reasons: [{ field: "outbound.status" }] });
    expect(s.sentTo(lead.phone)).toBe(1);
    // The list shows it sent now, linked to the conversation the message opened.
    const listed = await s.call("GET", `/v1/leads?first_message_status=sent`);
    expect(listed.json.data.find((l: any) => l.id === lead.leadId)).toMatchObject({
      outbound_status: "sent",
      contact_id: lead.contactId,
      conversation_id: expect.any(String),
    });
  });

  it("refuses a caller without admin:write and sends nothing", async () => {
    const lead = await s.failedLead();
    const refused = await s.call("POST", `/v1/leads/${lead.leadId}/retry-first-message`, s.readKey);
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe("insufficient_scope");
    expect(s.sentTo(lead.phone)).toBe(0);
    expect(
      (await s.call("GET", `/v1/leads?first_message_status=failed`, s.readKey)).json.data.map((l: any) => l.id),
    ).toContain(lead.leadId);
  });

  it("sends nothing after an opt-out: the retry is refused naming the opt-out and the message stays failed", async () => {
    const lead = await s.failedLead();
    expect((await s.call("POST", `/v1/contacts/${lead.contactId}/opt-out`)).status).toBe(200);
    const refused = await s.call("POST", `/v1/leads/${lead.leadId}/retry-first-message`);
    expect(refused.status).toBe(409);
    expect(refused.json.error.reasons).toEqual([
      { field: "contact.whatsapp_opted_out_at", reason: expect.stringContaining("opted out") },
    ]);
    expect(s.sentTo(lead.phone)).toBe(0);
    const stored = await s.storage.outbound.findByLeadEvent(lead.leadId);
    expect(stored?.status).toBe("failed");
  });

  it("answers 404 for a lead of no workspace of the caller's", async () => {
    const missing = await s.call("POST", `/v1/leads/${crypto.randomUUID()}/retry-first-message`);
    expect(missing.status).toBe(404);
  });

  // The races need concurrent transactions: only real PostgreSQL has them (registered there only).
  if (backend === "PostgreSQL") {
    it(`never claims the retry while an opt-out holds the contact's lock, and honours it once committed (${RUNS} runs)`, async () => {
      let claimedAfterOptOut = 0;
      let didNotWait = 0;
      for (let i = 0; i < RUNS; i++) {
        const lead = await s.failedLead();
        const message = (await s.storage.outbound.findByLeadEvent(lead.leadId))!;
        let lockHeld!: () => void;
        let commit!: () => void;
        const held = new Promise<void>((resolve) => (lockHeld = resolve));
        const released = new Promise<void>((resolve) => (commit = resolve));
        const optOut = s.storage.transaction(async (tx) => {
          await tx.contacts.optOutOfWhatsApp(message.workspaceId, message.contactId, new Date().toISOString());
          lockHeld();
          await released;
        });
        await held;
        const retry = s.call("POST", `/v1/leads/${lead.leadId}/retry-first-message`);
        if (!(await waitsOnALock(s.db!, retry, "claimed AS"))) didNotWait++;
        commit();
        await optOut;
        const answer = await retry;
        if (answer.status !== 409 || s.sentTo(lead.phone) > 0) claimedAfterOptOut++;
      }
      expect({ claimedAfterOptOut, didNotWait }).toEqual({ claimedAfterOptOut: 0, didNotWait: 0 });
    });

    it(`sends at most one message when two retries and an opt-out race (${RUNS} runs)`, async () => {
      let doubleSends = 0;
      let inconsistent = 0;
      for (let i = 0; i < RUNS; i++) {
        const lead = await s.failedLead();
        const path = `/v1/leads/${lead.leadId}/retry-first-message`;
        const [a, b, optOut] = await Promise.all([
          s.call("POST", path),
          s.call("POST", path),
          s.call("POST", `/v1/contacts/${lead.contactId}/opt-out`),
        ]);
        const sends = s.sentTo(lead.phone);
        const succeeded = [a, b].filter((r) => r.status === 200).length;
        if (sends > 1) doubleSends++;
        // Every retry that was not refused sent exactly the one message; a refused one sent nothing.
        if (optOut.status !== 200 || succeeded !== sends || [a, b].some((r) => r.status !== 200 && r.status !== 409))
          inconsistent++;
      }
      // Any 500 was logged with its cause: shown here rather than as a bare status.
      expect({ doubleSends, inconsistent, loggedErrors: s.loggedErrors.slice(0, 3) }).toEqual({
        doubleSends: 0,
        inconsistent: 0,
        loggedErrors: [],
      });
    });
  }
});
