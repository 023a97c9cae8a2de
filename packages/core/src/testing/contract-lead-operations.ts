import { describe, expect } from "vitest";
import { it } from "./contract-test.js";
import type { LeadListFilter, LeadRefusalRecord } from "../ports/lead-operations-storage.js";
import type { ContractSection, ContractContext } from "./contract-section.js";

/**
 * What operators see of lead intake (contract 16): the refusal ring per connector, the
 * workspace-wide lead list with its filters and cursor, and the retry's claim of a failed first
 * message under the contact's lock. Each test reads back what was stored.
 */
export const leadOperationsSection: ContractSection = {
  name: "lead operations",
  run(ctx) {
    describe("lead operations", () => {
      refusalTests(ctx);
      leadListTests(ctx);
      retryClaimTests(ctx);
    });
  },
};

function refusalTests({ storage, f, seedWorkspace }: ContractContext) {
  const refusal = (connectorId: string, n: number, over: Partial<LeadRefusalRecord> = {}): LeadRefusalRecord => ({
    id: f.id(),
    connectorId,
    at: f.at(n * 1000),
    code: "invalid_signature",
    fields: ["X-Vitrina-Signature"],
    skewMs: n,
    requestId: `req-${n}`,
    unrecordedBefore: 0,
    ...over,
  });

  describe("lead refusals", () => {
    it("keeps the newest `keep` refusals of a connector, newest first, and reads them back as written", async () => {
      const { connector } = await seedWorkspace();
      const { connector: other } = await seedWorkspace();
      const written: LeadRefusalRecord[] = [];
      for (let n = 1; n <= 7; n++) {
        const r = refusal(
          connector.id,
          n,
          n === 7 ? { fields: [], skewMs: null, requestId: null, unrecordedBefore: 12 } : {},
        );
        written.push(r);
        expect(await storage().leadRefusals.record(r, 3)).toBe(true);
      }
      await storage().leadRefusals.record(
        refusal(other.id, 1, { code: "invalid_payload", fields: ["contact.phone_e164"] }),
        3,
      );
      expect(await storage().leadRefusals.listByConnector(connector.id, 10)).toEqual(written.slice(4).reverse());
      expect(await storage().leadRefusals.listByConnector(connector.id, 2)).toEqual(written.slice(5).reverse());
      expect((await storage().leadRefusals.listByConnector(other.id, 10)).map((r) => r.fields)).toEqual([
        ["contact.phone_e164"],
      ]);
    });

    it("records nothing for an id no connector has", async () => {
      const unknown = f.id();
      expect(await storage().leadRefusals.record(refusal(unknown, 1), 5)).toBe(false);
      expect(await storage().leadRefusals.listByConnector(unknown, 5)).toEqual([]);
    });

    it("purges refusals older than the cutoff, in batches, and keeps the rest", async () => {
      const { connector } = await seedWorkspace();
      const old = [1, 2, 3].map((n) => refusal(connector.id, n, { at: "2020-01-01T00:00:0" + n + ".000Z" }));
      const recent = refusal(connector.id, 4, { at: "2030-01-01T00:00:00.000Z" });
      for (const r of [...old, recent]) await storage().leadRefusals.record(r, 10);
      let purged = 0;
      for (let batch = await storage().leadRefusals.purgeBefore("2021-01-01T00:00:00.000Z", 2); batch > 0;) {
        expect(batch).toBeLessThanOrEqual(2);
        purged += batch;
        batch = await storage().leadRefusals.purgeBefore("2021-01-01T00:00:00.000Z", 2);
      }
      expect(purged).toBe(3);
      expect(await storage().leadRefusals.listByConnector(connector.id, 10)).toEqual([recent]);
    });
  });
}

function leadListTests({ storage, f, seedWorkspace }: ContractContext) {
  describe("workspace leads", () => {
    it("lists every connector's leads newest first, filters them, pages by cursor and links contact and conversation", async () => {
      const { workspace, connector } = await seedWorkspace();
      const second = f.connector(workspace.id);
      await storage().connectors.insert(second);
      const { contact: ana } = await storage().contacts.insertOrGetByPhone(f.contact(workspace.id));
      const { contact: beto } = await storage().contacts.insertOrGetByPhone(f.contact(workspace.id));
      const conversation = f.conversation(workspace.id, ana.id);
      await storage().conversations.insert(conversation);
      const register = async (
        connectorId: string,
        contactId: string,
        n: number,
        status: "sent" | "failed" | "blocked" | null,
      ) => {
        const lead = f.lead(workspace.id, connectorId, { contactId, receivedAt: f.at(n * 1000) });
        const opportunity = f.opportunity(workspace.id, contactId, lead.id, { id: lead.opportunityId });
        if (status === null) {
          await storage().leads.insertIfNew(lead);
          await storage().opportunities.insert(opportunity);
        } else {
          await storage().leads.registerIfNew(
            lead,
            opportunity,
            f.outbound(workspace.id, lead.id, contactId, { status, reason: status }),
          );
        }
        return lead;
      };
      const l1 = await register(connector.id, ana.id, 1, "sent");
      const l2 = await register(second.id, beto.id, 2, "failed");
      const l3 = await register(connector.id, ana.id, 3, "failed");
      const l4 = await register(second.id, beto.id, 4, null);
      // Another workspace's lead never shows.
      const elsewhere = await seedWorkspace();
      const { contact: stranger } = await storage().contacts.insertOrGetByPhone(f.contact(elsewhere.workspace.id));
      await storage().leads.insertIfNew(
        f.lead(elsewhere.workspace.id, elsewhere.connector.id, { contactId: stranger.id }),
      );

      const ids = async (filter: LeadListFilter, limit = 10, startingAfter?: string) =>
        (
          await storage().workspaceLeads.listPage(workspace.id, filter, {
            limit,
            ...(startingAfter !== undefined && { startingAfter }),
          })
        ).map((l) => l.id);
      const all = await storage().workspaceLeads.listPage(workspace.id, {}, { limit: 10 });
      expect(all.map((l) => l.id)).toEqual([l4.id, l3.id, l2.id, l1.id]);
      expect(all[1]).toEqual({
        id: l3.id,
        connectorId: connector.id,
        contactId: ana.id,
        opportunityId: l3.opportunityId,
        conversationId: conversation.id,
        receivedAt: l3.receivedAt,
        sourceLeadId: l3.sourceLeadId,
        duplicate: true,
        outboundStatus: "failed",
        outboundReason: "failed",
        rejectedQualification: l3.qualificationRejected,
      });
      expect(all[0]).toMatchObject({
        conversationId: null,
        outboundStatus: null,
        outboundReason: null,
        duplicate: true,
      });
      expect(all[3]).toMatchObject({ duplicate: false, outboundStatus: "sent" });
      expect(await ids({ connectorId: second.id })).toEqual([l4.id, l2.id]);
      expect(await ids({ outboundStatus: "failed" })).toEqual([l3.id, l2.id]);
      expect(await ids({ outboundStatus: "none" })).toEqual([l4.id]);
      expect(await ids({ duplicate: false })).toEqual([l2.id, l1.id]);
      expect(await ids({ duplicate: true, connectorId: connector.id })).toEqual([l3.id]);
      expect(await ids({}, 2)).toEqual([l4.id, l3.id]);
      expect(await ids({}, 2, l3.id)).toEqual([l2.id, l1.id]);
      expect(await ids({ outboundStatus: "failed" }, 1, l3.id)).toEqual([l2.id]);
      expect(await ids({}, 2, f.id())).toEqual([]);
      // A cursor from another workspace names nothing here.
      expect(await ids({}, 2, stranger.id)).toEqual([]);
      expect(await storage().workspaceLeads.firstMessageOf(workspace.id, l2.id)).toMatchObject({ status: "failed" });
      expect(await storage().workspaceLeads.firstMessageOf(elsewhere.workspace.id, l2.id)).toBeNull();
      expect(await storage().workspaceLeads.firstMessageOf(workspace.id, l4.id)).toBeNull();
    });
  });
}

function retryClaimTests({ storage, f, seedWorkspace }: ContractContext) {
  describe("first message retry claim", () => {
    async function failedLead(over: { optedOut?: boolean; granted?: boolean } = {}) {
      const { workspace, connector } = await seedWorkspace();
      const lead = f.lead(workspace.id, connector.id);
      const { contact } = await storage().contacts.insertOrGetByPhone(
        f.contact(workspace.id, {
          whatsappConsent: { ...f.consent(lead.id), granted: over.granted ?? true },
          whatsappOptedOutAt: over.optedOut ? f.at(50) : null,
        }),
      );
      const message = f.outbound(workspace.id, lead.id, contact.id, {
        status: "failed",
        reason: "provider down",
        providerMessageId: "wamid.old",
        handedToProviderAt: f.at(1),
        providerAnsweredAt: f.at(2),
      });
      await storage().leads.registerIfNew(
        { ...lead, contactId: contact.id },
        f.opportunity(workspace.id, contact.id, lead.id, { id: lead.opportunityId }),
        message,
      );
      return { workspace, connector, contact, message };
    }
    const change = { status: "queued" as const, reason: "handed", handedToProviderAt: f.at(100), updatedAt: f.at(100) };

    it("hands a failed message over once, clearing the previous answer", async () => {
      const { contact, message } = await failedLead();
      const first = await storage().firstMessageRetries.claimFailed(message, contact.phoneE164!, change);
      expect(first.contact?.id).toBe(contact.id);
      const expected = { ...message, ...change, providerMessageId: null, providerAnsweredAt: null };
      expect(first.claimed).toEqual(expected);
      expect(await storage().outbound.findByLeadEvent(message.leadEventId)).toEqual(expected);
      const again = await storage().firstMessageRetries.claimFailed(message, contact.phoneE164!, change);
      expect(again.claimed).toBeNull();
      expect(again.contact?.id).toBe(contact.id);
    });

    it("claims nothing for a contact that opted out, withdrew consent, changed phone or was already welcomed", async () => {
      const optedOut = await failedLead({ optedOut: true });
      const withdrawn = await failedLead({ granted: false });
      const moved = await failedLead();
      const welcomed = await failedLead();
      const live = f.lead(welcomed.workspace.id, welcomed.connector.id, { contactId: welcomed.contact.id });
      await storage().leads.registerIfNew(
        live,
        f.opportunity(welcomed.workspace.id, welcomed.contact.id, live.id, { id: live.opportunityId }),
        f.outbound(welcomed.workspace.id, live.id, welcomed.contact.id, { status: "sent" }),
      );
      for (const [c, phone] of [
        [optedOut, optedOut.contact.phoneE164!],
        [withdrawn, withdrawn.contact.phoneE164!],
        [moved, "+56911111111"],
        [welcomed, welcomed.contact.phoneE164!],
      ] as const) {
        const result = await storage().firstMessageRetries.claimFailed(c.message, phone, change);
        expect(result.claimed).toBeNull();
        expect(await storage().outbound.findByLeadEvent(c.message.leadEventId)).toEqual(c.message);
      }
    });

    it("claims only failed messages of the message's own workspace", async () => {
      const { contact, message } = await failedLead();
      const other = await seedWorkspace();
      const wrong = await storage().firstMessageRetries.claimFailed(
        { ...message, workspaceId: other.workspace.id },
        contact.phoneE164!,
        change,
      );
      expect(wrong).toEqual({ contact: null, claimed: null });
      const sentLead = await failedLead();
      await storage().outbound.recordOutcome({
        id: sentLead.message.id,
        status: "sent",
        reason: null,
        providerMessageId: "wamid.x",
        providerAnsweredAt: f.at(3),
        updatedAt: f.at(3),
      });
      const notFailed = await storage().firstMessageRetries.claimFailed(
        sentLead.message,
        sentLead.contact.phoneE164!,
        change,
      );
      expect(notFailed.claimed).toBeNull();
      expect(await storage().outbound.findByLeadEvent(message.leadEventId)).toEqual(message);
    });
  });
}
