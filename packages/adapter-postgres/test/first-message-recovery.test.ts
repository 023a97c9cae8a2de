import { memoryStorage } from "@vitrina/adapter-memory";
import { signLead } from "@vitrina/client";
import {
  createVitrina,
  type LogFields,
  type Logger,
  type MessagingTransport,
  type OutgoingMessage,
  type SendResult,
  type Storage,
} from "@vitrina/core";
import { CONSENT_WITHDRAWN_REASON, OUTCOME_UNKNOWN_REASON } from "@vitrina/core/storage";
import { createManualClock } from "@vitrina/core/testing";
import { describe, expect, it, vi } from "vitest";
import { sampleLead } from "../../http-node/test/support/lead-harness.js";
import { backends, DATABASE_URL, openTestStorage } from "./support.js";

const LEASE_MS = 10 * 60_000;
const storages: Array<[string, () => Promise<Storage>]> = [
  ["memory", async () => memoryStorage()],
  ...backends.map((b): [string, () => Promise<Storage>] => [b, async () => (await openTestStorage(b)).storage]),
];

/**
 * A lead intake whose process can "stop" at two points: before the message reaches the provider
 * (`crashBeforeSend`: the step after the lead's commit throws, as if the process died there: a new
 * person's registration, which already handed the message over, or a known person's claim), or
 * during the provider call (`hangProvider`: the call never answers until `answer` is called).
 */
async function setup(storage: Storage) {
  const clock = createManualClock("2026-03-01T12:00:00.000Z");
  const sent: OutgoingMessage[] = [];
  const logs: Array<{ level: string; fields: LogFields; message: string }> = [];
  const at = (level: string) =>
    ((fields: LogFields, message: string) => void logs.push({ level, fields, message })) as Logger["info"];
  const logger: Logger = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
  const control = { crashBeforeSend: false, hangProvider: false };
  let answer: ((result: SendResult) => void) | null = null;
  const messaging: MessagingTransport = {
    send(message) {
      sent.push(message);
      if (!control.hangProvider) return Promise.resolve({ status: "sent", providerMessageId: `wamid.${sent.length}` });
      return new Promise((resolve) => (answer = resolve));
    },
  };
  const stop = () => Promise.reject(new Error("the process stopped here"));
  const crashing: Storage = {
    ...storage,
    // A new person's registration hands the message over as it commits: a process that stops right
    // after it leaves the message in flight, never sent.
    leads: {
      ...storage.leads,
      registerNewPerson: async (...args) => {
        const registered = await storage.leads.registerNewPerson(...args);
        return control.crashBeforeSend && registered ? stop() : registered;
      },
    },
    // The claim is one atomic statement outside a transaction; a crash there leaves the message unclaimed.
    outbound: {
      ...storage.outbound,
      claimForSending: (...args) => (control.crashBeforeSend ? stop() : storage.outbound.claimForSending(...args)),
    },
    transaction: (work) =>
      storage.transaction((tx) => {
        if (!control.crashBeforeSend) return work(tx);
        // Older releases claimed inside a transaction (and before that, with a whole-row update).
        return work({ ...tx, outbound: { ...tx.outbound, claimUnsent: stop, recordOutcome: stop } });
      }),
  };
  const vitrina = createVitrina({
    storage: crashing,
    messaging,
    secretBox: Buffer.alloc(32, 5).toString("base64"),
    clock,
    logger,
  });
  const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner" });
  const { connector, secret } = await vitrina.connectors.create(
    { userId: "owner" },
    { workspaceId: workspace.id, name: "CRM", systemId: "crm" },
  );
  const postLead = (lead: ReturnType<typeof sampleLead>) => {
    const body = JSON.stringify(lead);
    const { headers } = signLead({ connectorId: connector.id, secret, body, timestamp: clock.now().getTime() });
    return vitrina.handler(new Request("http://127.0.0.1/functions/v1/lead-intake", { method: "POST", headers, body }));
  };
  const outboundOf = async (lead: ReturnType<typeof sampleLead>) => {
    const stored = await storage.leads.findBySourceId(connector.id, lead.source_lead_id);
    return storage.outbound.findByLeadEvent(stored!.id);
  };
  /**
   * Registers a lead whose process stops before the send: the message stays `queued`, never handed
   * over. The phone is known (an earlier lead without consent, its message blocked), so the lead
   * goes the general way, whose claim comes after its transaction.
   */
  const leadCrashedBeforeSend = async (lead = sampleLead()) => {
    await postLead(sampleLead({ contact: { phone_e164: lead.contact.phone_e164 }, whatsapp_consent: undefined }));
    control.crashBeforeSend = true;
    const response = await postLead(lead);
    control.crashBeforeSend = false;
    expect(response.status).toBe(500);
    expect(await outboundOf(lead)).toMatchObject({ status: "queued", handedToProviderAt: null });
    return lead;
  };
  return {
    vitrina,
    storage,
    clock,
    sent,
    logs,
    control,
    postLead,
    outboundOf,
    leadCrashedBeforeSend,
    /** What a message handed to the provider at `at`, with no answer yet, looks like. */
    inFlightSince: (at: Date) => ({
      status: "queued",
      reason: "handed to the messaging provider",
      handedToProviderAt: at.toISOString(),
      providerAnsweredAt: null,
    }),
    answer: (r: SendResult) => answer!(r),
    workspace,
  };
}

describe.each(storages)("stuck first messages on %s", (name, open) => {
  it("marks a message failed (outcome unknown) once its lease passed when the process stopped during the provider call; never resends it", async () => {
    const storage = await open();
    const s = await setup(storage);
    try {
      s.control.hangProvider = true;
      const lead = sampleLead();
      const stopped = s.postLead(lead);
      await vi.waitFor(() => expect(s.sent).toHaveLength(1));
      const inFlight = await s.outboundOf(lead);
      expect(inFlight).toMatchObject(s.inFlightSince(s.clock.now()));

      s.clock.advance(LEASE_MS - 1);
      expect(await s.vitrina.maintenance.reconcileFirstMessages()).toEqual({
        outcomeUnknown: 0,
        sentLate: 0,
        abandoned: 0,
      });
      s.clock.advance(1);
      expect(await s.vitrina.maintenance.reconcileFirstMessages()).toEqual({
        outcomeUnknown: 1,
        sentLate: 0,
        abandoned: 0,
      });
      expect(await s.outboundOf(lead)).toMatchObject({
        status: "failed",
        reason: OUTCOME_UNKNOWN_REASON,
        handedToProviderAt: inFlight!.handedToProviderAt,
      });
      s.clock.advance(LEASE_MS);
      expect(await s.vitrina.maintenance.reconcileFirstMessages()).toEqual({
        outcomeUnknown: 0,
        sentLate: 0,
        abandoned: 0,
      });
      expect(s.sent).toHaveLength(1);

      // Had the process only been slow, the provider's answer, when it comes, is what stays.
      s.answer({ status: "sent", providerMessageId: "wamid.late" });
      expect((await stopped).status).toBe(200);
      expect(await s.outboundOf(lead)).toMatchObject({ status: "sent", providerMessageId: "wamid.late", reason: null });
    } finally {
      await storage.close();
    }
  });

  it("settles a new person's message as outcome unknown when the process stopped right after registering: it was handed over with the registration, so it is never sent", async () => {
    const storage = await open();
    const s = await setup(storage);
    try {
      const lead = sampleLead();
      s.control.crashBeforeSend = true;
      expect((await s.postLead(lead)).status).toBe(500);
      s.control.crashBeforeSend = false;
      const registered = await s.outboundOf(lead);
      expect(registered).toMatchObject(s.inFlightSince(s.clock.now()));
      s.clock.advance(LEASE_MS + 1);
      expect(await s.vitrina.maintenance.reconcileFirstMessages()).toEqual({
        outcomeUnknown: 1,
        sentLate: 0,
        abandoned: 0,
      });
      expect(await s.outboundOf(lead)).toMatchObject({ status: "failed", reason: OUTCOME_UNKNOWN_REASON });
      // The CRM's retry answers with that state and sends nothing either.
      expect((await (await s.postLead(lead)).json()).outbound).toEqual({
        status: "failed",
        reason: OUTCOME_UNKNOWN_REASON,
      });
      expect(s.sent).toEqual([]);
    } finally {
      await storage.close();
    }
  });

  it("sends a message the provider never got once its lease passed (consent re-checked), once; too late or opted out, never", async () => {
    const storage = await open();
    const s = await setup(storage);
    try {
      const lead = await s.leadCrashedBeforeSend();
      expect(await s.vitrina.maintenance.reconcileFirstMessages()).toEqual({
        outcomeUnknown: 0,
        sentLate: 0,
        abandoned: 0,
      });
      s.clock.advance(LEASE_MS + 1);
      expect(await s.vitrina.maintenance.reconcileFirstMessages()).toEqual({
        outcomeUnknown: 0,
        sentLate: 1,
        abandoned: 0,
      });
      expect(s.sent.map((m) => m.to)).toEqual([lead.contact.phone_e164]);
      const sent = await s.outboundOf(lead);
      expect(sent).toMatchObject({ status: "sent", providerMessageId: "wamid.1", reason: null });
      const conversation = await storage.conversations.findActive(s.workspace.id, sent!.contactId, "whatsapp");
      expect(conversation).not.toBeNull();
      s.clock.advance(LEASE_MS + 1);
      expect(await s.vitrina.maintenance.reconcileFirstMessages()).toEqual({
        outcomeUnknown: 0,
        sentLate: 0,
        abandoned: 0,
      });
      expect(s.sent).toHaveLength(1);

      // The CRM's retry of the same lead answers with the state; it does not send either.
      expect((await (await s.postLead(lead)).json()).outbound).toEqual({ status: "sent", reason: null });

      const optedOut = await s.leadCrashedBeforeSend();
      await s.vitrina.contacts.optOutOfWhatsApp({
        workspaceId: s.workspace.id,
        phoneE164: optedOut.contact.phone_e164,
      });
      const tooLate = await s.leadCrashedBeforeSend();
      s.clock.advance(2 * 3600_000);
      expect(await s.vitrina.maintenance.reconcileFirstMessages()).toEqual({
        outcomeUnknown: 0,
        sentLate: 0,
        abandoned: 2,
      });
      expect(await s.outboundOf(tooLate)).toMatchObject({
        status: "failed",
        reason: expect.stringMatching(/too late for a first message/),
      });
      expect(await s.outboundOf(optedOut)).toMatchObject({
        status: "failed",
        reason: expect.stringMatching(/too late/),
      });
      expect(s.sent).toHaveLength(1);
    } finally {
      await storage.close();
    }
  });

  it("re-checks consent when it sends late: an opt-out in between blocks it", async () => {
    const storage = await open();
    const s = await setup(storage);
    try {
      const lead = await s.leadCrashedBeforeSend();
      await s.vitrina.contacts.optOutOfWhatsApp({ workspaceId: s.workspace.id, phoneE164: lead.contact.phone_e164 });
      s.clock.advance(LEASE_MS + 1);
      expect(await s.vitrina.maintenance.reconcileFirstMessages()).toEqual({
        outcomeUnknown: 0,
        sentLate: 0,
        abandoned: 1,
      });
      expect(await s.outboundOf(lead)).toMatchObject({ status: "blocked", reason: expect.stringMatching(/opted out/) });
      expect(s.sent).toEqual([]);
    } finally {
      await storage.close();
    }
  });
  it("re-checks consent when it sends late: a later lead withdrawing consent blocks it, and the log says why", async () => {
    const storage = await open();
    const s = await setup(storage);
    try {
      const lead = await s.leadCrashedBeforeSend();
      const queued = (await s.outboundOf(lead))!;
      // The same person, through the CRM again: this time they said no to WhatsApp.
      const withdrawal = sampleLead({
        contact: { phone_e164: lead.contact.phone_e164 },
        whatsapp_consent: { granted: false, timestamp: "2026-02-01T12:00:00Z", source: "landing-form" },
      });
      const answered = await (await s.postLead(withdrawal)).json();
      expect(answered.outbound.status).toBe("blocked");
      s.clock.advance(LEASE_MS + 1);
      expect(await s.vitrina.maintenance.reconcileFirstMessages()).toEqual({
        outcomeUnknown: 0,
        sentLate: 0,
        abandoned: 1,
      });
      expect(await s.outboundOf(lead)).toMatchObject({ status: "blocked", reason: CONSENT_WITHDRAWN_REASON });
      expect(s.sent).toEqual([]);
      const entry = s.logs.find((l) => l.fields.outboundId === queued.id);
      expect(entry).toMatchObject({
        level: "warn",
        fields: {
          leadEventId: queued.leadEventId,
          contactId: queued.contactId,
          consentLeadEventId: answered.lead_event_id,
          blockedBecause: "consent_withdrawn",
        },
      });
      // Ids only: never the person's phone.
      expect(JSON.stringify(entry)).not.toContain(lead.contact.phone_e164.slice(1));
    } finally {
      await storage.close();
    }
  });
});

// Two workers (or a worker and the late original request) settling the same stuck message must
// not both send it. Only real PostgreSQL runs their transactions at once.
describe.runIf(DATABASE_URL)("stuck first messages: concurrent sweeps on PostgreSQL", () => {
  const RACES = 150;
  const AT_ONCE = 10;
  it(`hands each stuck message to the provider once when three sweeps race (${RACES} messages)`, async () => {
    const { storage } = await openTestStorage("PostgreSQL");
    const s = await setup(storage);
    try {
      let sentTwice = 0;
      for (let done = 0; done < RACES; done += AT_ONCE) {
        const leads = [];
        for (let i = 0; i < AT_ONCE; i++) leads.push(await s.leadCrashedBeforeSend());
        s.clock.advance(LEASE_MS + 1);
        await Promise.all([1, 2, 3].map(() => s.vitrina.maintenance.reconcileFirstMessages()));
        for (const lead of leads) if (s.sent.filter((m) => m.to === lead.contact.phone_e164).length > 1) sentTwice++;
      }
      console.info(
        `[PostgreSQL] ${RACES} stuck messages, 3 racing sweeps: ${s.sent.length} sends, ${sentTwice} messages sent twice or more`,
      );
      expect({ sends: s.sent.length, sentTwice }).toEqual({ sends: RACES, sentTwice: 0 });
    } finally {
      await storage.close();
    }
  });
});
