import { describe, expect } from "vitest";
import { it } from "./contract-test.js";
import type { ConsentLedgerEntry, ContactRecord } from "../ports/records.js";
import type { Storage } from "../ports/storage.js";
import type { StatusReport, WhatsAppChannelRecord } from "../ports/whatsapp-storage.js";
import type { Fixtures, Seed, ContractContext } from "./contract-section.js";

/** A report of one status at `at`. */
export function statusReport(
  providerMessageId: string,
  status: "sent" | "delivered" | "read" | "failed",
  at: string,
  failure: { code: number; title: string } | null = null,
): StatusReport {
  return {
    providerMessageId,
    sentAt: status === "sent" ? at : null,
    deliveredAt: status === "delivered" ? at : null,
    readAt: status === "read" ? at : null,
    failedAt: status === "failed" ? at : null,
    failureCode: status === "failed" ? (failure?.code ?? null) : null,
    failureTitle: status === "failed" ? (failure?.title ?? null) : null,
  };
}

/**
 * The WhatsApp channel's storage: per-workspace channels, delivery reports merged by provider id in
 * any order, the consent ledger, inbound contacts and messages.
 */
export function whatsappContract({ storage, f, seedWorkspace }: ContractContext): void {
  const channel = (workspaceId: string, over: Partial<WhatsAppChannelRecord> = {}): WhatsAppChannelRecord => ({
    workspaceId,
    phoneNumberId: `1${Math.floor(Math.random() * 1e14)}`,
    sealedAccessToken: "v1.sealed.token",
    sealedAppSecret: "v1.sealed.app-secret",
    verifyTokenHash: f.id(),
    graphBaseUrl: "http://127.0.0.1:1",
    apiVersion: "v21.0",
    optOutKeywords: null,
    optInKeywords: ["volver", "start"],
    createdAt: f.at(),
    updatedAt: f.at(),
    ...over,
  });
  const entry = (contact: ContactRecord, over: Partial<ConsentLedgerEntry> = {}): ConsentLedgerEntry => ({
    id: f.id(),
    workspaceId: contact.workspaceId,
    contactId: contact.id,
    kind: "opted_out",
    source: "keyword",
    sourceRef: "123",
    evidence: { provider_message_id: "wamid.X", words: "BAJA" },
    occurredAt: f.at(1000),
    recordedAt: f.at(2000),
    dedupeKey: `keyword:${f.id()}`,
    ...over,
  });

  describe("whatsapp channels", () => {
    it("stores a channel per workspace, finds it by phone number id and verify token hash, replaces and deletes it", async () => {
      const { workspace } = await seedWorkspace();
      const stored = await storage().whatsappChannels.put(channel(workspace.id));
      expect(await storage().whatsappChannels.get(workspace.id)).toEqual(stored);
      expect(await storage().whatsappChannels.findByPhoneNumberIds([stored.phoneNumberId, "nope"])).toEqual([stored]);
      expect(await storage().whatsappChannels.hasVerifyTokenHash(stored.verifyTokenHash)).toBe(true);
      expect(await storage().whatsappChannels.hasVerifyTokenHash("other")).toBe(false);
      const changed = await storage().whatsappChannels.put({
        ...stored,
        sealedAccessToken: null,
        optOutKeywords: ["basta"],
        updatedAt: f.at(5000),
      });
      expect(changed).toEqual({ ...stored, sealedAccessToken: null, optOutKeywords: ["basta"], updatedAt: f.at(5000) });
      expect(await storage().whatsappChannels.get(workspace.id)).toEqual(changed);
      expect(await storage().whatsappChannels.delete(workspace.id)).toBe(true);
      expect(await storage().whatsappChannels.get(workspace.id)).toBeNull();
      expect(await storage().whatsappChannels.delete(workspace.id)).toBe(false);
    });

    it("refuses a phone number id another workspace's channel has (conflict), and keeps the first", async () => {
      const { workspace: a } = await seedWorkspace();
      const { workspace: b } = await seedWorkspace();
      const first = await storage().whatsappChannels.put(channel(a.id));
      await expect(
        storage().whatsappChannels.put(channel(b.id, { phoneNumberId: first.phoneNumberId })),
      ).rejects.toMatchObject({
        code: "conflict",
      });
      expect(await storage().whatsappChannels.get(b.id)).toBeNull();
      expect(await storage().whatsappChannels.findByPhoneNumberIds([first.phoneNumberId])).toEqual([first]);
    });
  });

  describe("delivery reports", () => {
    it("merges statuses in any order into one state: first time per status, failure kept, status by rank", async () => {
      const { workspace } = await seedWorkspace();
      const orders = [
        ["sent", "delivered", "read"],
        ["read", "sent", "delivered"],
        ["delivered", "read", "sent"],
      ] as const;
      const states = [];
      for (const order of orders) {
        const wamid = `wamid.${f.id()}`;
        const times = { sent: f.at(1000), delivered: f.at(2000), read: f.at(3000) };
        for (const status of order)
          await storage().deliveryReports.recordStatuses(workspace.id, [statusReport(wamid, status, times[status])]);
        // A duplicate, later copy changes nothing.
        await storage().deliveryReports.recordStatuses(workspace.id, [statusReport(wamid, "sent", f.at(9000))]);
        states.push(await storage().deliveryReports.get(workspace.id, wamid));
      }
      for (const state of states)
        expect(state).toEqual({
          status: "read",
          sentAt: f.at(1000),
          deliveredAt: f.at(2000),
          readAt: f.at(3000),
          failedAt: null,
          failureCode: null,
          failureTitle: null,
        });
    });

    it("ranks failed above sent and below delivered, keeping the first failure's code", async () => {
      const { workspace } = await seedWorkspace();
      const wamid = `wamid.${f.id()}`;
      const [afterSent] = await storage().deliveryReports.recordStatuses(workspace.id, [
        {
          ...statusReport(wamid, "failed", f.at(2000), { code: 131050, title: "stopped marketing" }),
          sentAt: f.at(1000),
        },
      ]);
      expect(afterSent!.state).toMatchObject({
        status: "failed",
        failureCode: 131050,
        failureTitle: "stopped marketing",
      });
      expect(afterSent!.contactId).toBeNull();
      await storage().deliveryReports.recordStatuses(workspace.id, [
        statusReport(wamid, "failed", f.at(2500), { code: 131026, title: "undeliverable" }),
      ]);
      const [delivered] = await storage().deliveryReports.recordStatuses(workspace.id, [
        statusReport(wamid, "delivered", f.at(3000)),
      ]);
      expect(delivered!.state).toEqual({
        status: "delivered",
        sentAt: f.at(1000),
        deliveredAt: f.at(3000),
        readAt: null,
        failedAt: f.at(2000),
        failureCode: 131050,
        failureTitle: "stopped marketing",
      });
    });

    it("keeps a report that arrives before the send's answer, and attaches it to the first message and its thread copy", async () => {
      const { workspace, connector } = await seedWorkspace();
      const contact = f.contact(workspace.id);
      const lead = f.lead(workspace.id, connector.id, { contactId: contact.id });
      const opportunity = f.opportunity(workspace.id, contact.id, lead.id);
      const outbound = f.outbound(workspace.id, lead.id, contact.id, { handedToProviderAt: f.at(10) });
      expect(
        await storage().leads.registerNewPerson(contact, lead, opportunity, outbound, connector.secretVersion),
      ).toBe(true);
      const wamid = `wamid.${f.id()}`;
      await storage().deliveryReports.recordStatuses(workspace.id, [statusReport(wamid, "delivered", f.at(2000))]);
      expect((await storage().outbound.findByLeadEvent(lead.id))?.delivery).toBeUndefined();
      const conversation = f.conversation(workspace.id, contact.id, { createdAt: f.at(1500), updatedAt: f.at(1500) });
      await storage().outbound.recordOutcome(
        {
          id: outbound.id,
          status: "queued",
          reason: "accepted",
          providerMessageId: wamid,
          providerAnsweredAt: f.at(1500),
          updatedAt: f.at(1500),
        },
        {
          conversation,
          message: {
            id: f.id(),
            workspaceId: workspace.id,
            sender: "agent",
            content: "[template vitrina_welcome]",
            providerMessageId: wamid,
            createdAt: f.at(1500),
          },
          started: {
            id: f.id(),
            workspaceId: workspace.id,
            type: "conversation.started",
            created: f.at(1500),
            data: {
              conversation_id: conversation.id,
              contact_id: contact.id,
              channel: "whatsapp",
              started_by: "lead_intake",
            },
          },
          retryUntil: f.at(86_400_000),
        },
      );
      const expected = {
        status: "delivered",
        sentAt: null,
        deliveredAt: f.at(2000),
        readAt: null,
        failedAt: null,
        failureCode: null,
        failureTitle: null,
      };
      const stored = await storage().outbound.findByLeadEvent(lead.id);
      expect(stored).toMatchObject({ status: "queued", providerMessageId: wamid, delivery: expected });
      const [copy] = await storage().messages.listByConversation(conversation.id);
      expect(copy).toMatchObject({ providerMessageId: wamid, delivery: expected });
      expect(await storage().messages.findByProviderId(workspace.id, wamid)).toEqual(copy);
      const [again] = await storage().deliveryReports.recordStatuses(workspace.id, [
        statusReport(wamid, "read", f.at(3000)),
      ]);
      expect(again!.contactId).toBe(contact.id);
      expect(again!.state.status).toBe("read");
    });
  });

  it("purges reports no message carries once they are old enough, in batches, and keeps the rest", async () => {
    const { workspace, connector } = await seedWorkspace();
    const contact = f.contact(workspace.id);
    const lead = f.lead(workspace.id, connector.id, { contactId: contact.id });
    const outbound = f.outbound(workspace.id, lead.id, contact.id, { providerMessageId: "wamid.ours", status: "sent" });
    await storage().leads.registerNewPerson(
      contact,
      lead,
      f.opportunity(workspace.id, contact.id, lead.id),
      outbound,
      connector.secretVersion,
    );
    const orphans = ["wamid.o1", "wamid.o2", "wamid.o3"];
    await storage().deliveryReports.recordStatuses(workspace.id, [
      statusReport("wamid.ours", "delivered", f.at(1)),
      ...orphans.map((id) => statusReport(id, "delivered", f.at(1))),
    ]);
    const past = "2000-01-01T00:00:00.000Z";
    expect(await storage().deliveryReports.purgeOrphans(past, 10)).toBe(0);
    const future = "2999-01-01T00:00:00.000Z";
    expect(await storage().deliveryReports.purgeOrphans(future, 2)).toBe(2);
    expect(await storage().deliveryReports.purgeOrphans(future, 10)).toBeGreaterThanOrEqual(1);
    for (const id of orphans) expect(await storage().deliveryReports.get(workspace.id, id)).toBeNull();
    expect(await storage().deliveryReports.get(workspace.id, "wamid.ours")).toMatchObject({ status: "delivered" });
  });

  describe("consent ledger", () => {
    it("appends entries once per dedupe key, lists a contact's newest first within the limit", async () => {
      const { workspace } = await seedWorkspace();
      const contact = f.contact(workspace.id);
      await storage().contacts.insertOrGetByPhone(contact);
      const older = entry(contact, { kind: "granted", source: "lead", occurredAt: f.at(100), dedupeKey: null });
      const newer = entry(contact, { occurredAt: f.at(300) });
      const resumed = entry(contact, { kind: "resumed", source: "whatsapp_preference", occurredAt: f.at(200) });
      for (const e of [older, newer, resumed]) expect(await storage().consentLedger.append(e)).toBe(true);
      expect(await storage().consentLedger.append({ ...newer, id: f.id() })).toBe(false);
      expect(await storage().consentLedger.listByContact(workspace.id, contact.id, { limit: 10 })).toEqual([
        newer,
        resumed,
        older,
      ]);
      expect(await storage().consentLedger.listByContact(workspace.id, contact.id, { limit: 1 })).toEqual([newer]);
      const { workspace: other } = await seedWorkspace();
      expect(await storage().consentLedger.listByContact(other.id, contact.id, { limit: 10 })).toEqual([]);
    });

    it("registerNewPerson appends the lead's consent entry in the same step, and nothing when it writes nothing", async () => {
      const { workspace, connector } = await seedWorkspace();
      const contact = f.contact(workspace.id);
      const lead = f.lead(workspace.id, connector.id, { contactId: contact.id });
      const granted = entry(contact, {
        kind: "granted",
        source: "lead",
        sourceRef: connector.id,
        dedupeKey: `lead:${lead.id}`,
      });
      const args = [
        f.opportunity(workspace.id, contact.id, lead.id),
        f.outbound(workspace.id, lead.id, contact.id),
      ] as const;
      expect(await storage().leads.registerNewPerson(contact, lead, ...args, connector.secretVersion, granted)).toBe(
        true,
      );
      expect(await storage().consentLedger.listByContact(workspace.id, contact.id, { limit: 10 })).toEqual([granted]);
      const again = f.lead(workspace.id, connector.id, { contactId: contact.id });
      const refused = entry(contact, { dedupeKey: `lead:${again.id}` });
      expect(
        await storage().leads.registerNewPerson(
          contact,
          again,
          f.opportunity(workspace.id, contact.id, again.id),
          f.outbound(workspace.id, again.id, contact.id),
          connector.secretVersion,
          refused,
        ),
      ).toBe(false);
      expect(await storage().consentLedger.listByContact(workspace.id, contact.id, { limit: 10 })).toEqual([granted]);
    });
  });

  describe("inbound contacts and messages", () => {
    it("resolveForInbound finds by user id, then by phone (adding the user id), else creates", async () => {
      const { workspace } = await seedWorkspace();
      const known = f.contact(workspace.id);
      await storage().contacts.insertOrGetByPhone(known);
      const viaPhone = await storage().transaction((tx) =>
        tx.contacts.resolveForInbound(
          f.contact(workspace.id, { phoneE164: known.phoneE164, whatsappUserId: "CL.bsuid.1" }),
        ),
      );
      expect(viaPhone).toEqual({ contact: { ...known, whatsappUserId: "CL.bsuid.1" }, created: false });
      const viaUser = await storage().contacts.resolveForInbound(
        f.contact(workspace.id, { phoneE164: null, whatsappUserId: "CL.bsuid.1" }),
      );
      expect(viaUser.contact.id).toBe(known.id);
      expect(await storage().contacts.findByWhatsAppUserId(workspace.id, "CL.bsuid.1")).toEqual(viaUser.contact);
      const stranger = f.contact(workspace.id, { phoneE164: null, whatsappUserId: "CL.bsuid.2", name: null });
      expect(await storage().contacts.resolveForInbound(stranger)).toEqual({ contact: stranger, created: true });
      expect(await storage().contacts.get(workspace.id, stranger.id)).toEqual(stranger);
    });

    it("recordInbound moves the window's start forward only; resume and opt-out respect each other's times", async () => {
      const { workspace } = await seedWorkspace();
      const contact = f.contact(workspace.id);
      await storage().contacts.insertOrGetByPhone(contact);
      await storage().contacts.recordInbound(workspace.id, contact.id, f.at(5000));
      const kept = await storage().contacts.recordInbound(workspace.id, contact.id, f.at(4000));
      expect(kept?.whatsappLastInboundAt).toBe(f.at(5000));
      // A resume at 3000, then a late copy of an opt-out from 2000: the resume stands.
      await storage().contacts.resumeWhatsApp(workspace.id, contact.id, f.at(3000));
      const late = await storage().contacts.optOutOfWhatsApp(workspace.id, contact.id, f.at(2000));
      expect(late).toMatchObject({ whatsappOptedOutAt: null, whatsappResumedAt: f.at(3000) });
      // A newer opt-out applies, and an older resume doesn't undo it.
      const optedOut = await storage().contacts.optOutOfWhatsApp(workspace.id, contact.id, f.at(6000));
      expect(optedOut?.whatsappOptedOutAt).toBe(f.at(6000));
      const stale = await storage().contacts.resumeWhatsApp(workspace.id, contact.id, f.at(5500));
      expect(stale?.whatsappOptedOutAt).toBe(f.at(6000));
      const resumed = await storage().contacts.resumeWhatsApp(workspace.id, contact.id, f.at(7000));
      expect(resumed).toMatchObject({ whatsappOptedOutAt: null, whatsappResumedAt: f.at(7000) });
      expect(await storage().contacts.get(workspace.id, contact.id)).toEqual(resumed);
    });

    it("stores inbound messages with their provider id, kind, reply and details; refuses a second message with the same provider id", async () => {
      const { workspace } = await seedWorkspace();
      const contact = f.contact(workspace.id);
      await storage().contacts.insertOrGetByPhone(contact);
      const conversation = f.conversation(workspace.id, contact.id);
      await storage().conversations.insert(conversation);
      const message = {
        id: f.id(),
        workspaceId: workspace.id,
        conversationId: conversation.id,
        sender: "contact",
        content: "[image] la fachada",
        providerMessageId: `wamid.${f.id()}`,
        kind: "image",
        replyTo: "wamid.earlier",
        details: { image: { id: "media-1", caption: "la fachada" }, referral: { ctwa_clid: "x" } },
        createdAt: f.at(100),
      };
      await storage().messages.insert(message);
      expect(await storage().messages.findByProviderId(workspace.id, message.providerMessageId)).toEqual(message);
      expect(await storage().messages.listByConversation(conversation.id)).toEqual([message]);
      await expect(storage().messages.insert({ ...message, id: f.id() })).rejects.toMatchObject({ code: "conflict" });
      const sent = {
        id: f.id(),
        workspaceId: workspace.id,
        conversationId: conversation.id,
        sender: "human",
        content: "hola",
        createdAt: f.at(200),
      };
      await storage().messages.insert(sent);
      expect(await storage().messages.setProviderMessageId(workspace.id, sent.id, "wamid.sent")).toBe(true);
      expect(await storage().messages.findByProviderId(workspace.id, "wamid.sent")).toEqual({
        ...sent,
        providerMessageId: "wamid.sent",
      });
      expect(await storage().messages.setProviderMessageId(workspace.id, f.id(), "wamid.none")).toBe(false);
    });

    it("attributeNewest sets the newest opportunity's attribution once", async () => {
      const { workspace, connector } = await seedWorkspace();
      const contact = f.contact(workspace.id);
      const first = f.lead(workspace.id, connector.id, { contactId: contact.id });
      const second = f.lead(workspace.id, connector.id, { contactId: contact.id });
      const older = f.opportunity(workspace.id, contact.id, first.id, { createdAt: f.at(100) });
      const newer = f.opportunity(workspace.id, contact.id, second.id, { createdAt: f.at(200) });
      await storage().leads.registerNewPerson(
        contact,
        first,
        older,
        f.outbound(workspace.id, first.id, contact.id),
        connector.secretVersion,
      );
      await storage().leads.registerIfNew(second, newer, f.outbound(workspace.id, second.id, contact.id));
      expect(await storage().opportunities.attributeNewest(workspace.id, contact.id, { referral: { ad: 1 } })).toBe(
        newer.id,
      );
      expect(
        await storage().opportunities.attributeNewest(workspace.id, contact.id, { referral: { ad: 2 } }),
      ).toBeNull();
      expect(await storage().opportunities.get(newer.id)).toEqual({ ...newer, attribution: { referral: { ad: 1 } } });
      expect(await storage().opportunities.get(older.id)).toEqual(older);
      expect(await storage().opportunities.attributeNewest(workspace.id, f.id(), { referral: {} })).toBeNull();
    });
  });
}
