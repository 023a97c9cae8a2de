import type { ContractContext } from "./contract-section.js";
import { describe, expect } from "vitest";
import { it } from "./contract-test.js";
import type { Storage } from "../ports/storage.js";
import { fixtures } from "./fixtures.js";
import { webhookFixtures } from "./webhook-fixtures.js";

/**
 * What the admin API needs from an adapter, called from `runStorageContract`: members with their
 * invitation address and date, the owner count and role changes behind the owner rule, the
 * connector listing's keyset pages, and API key usage written at most once per interval.
 */
export function adminContract({ storage }: ContractContext): void {
  const f = fixtures();
  const w = webhookFixtures();
  async function newWorkspace() {
    const workspace = f.workspace();
    await storage().workspaces.insert(workspace);
    return workspace;
  }

  describe("admin: members", () => {
    it("adds members once, lists them oldest first, changes roles and removes them", async () => {
      const ws = await newWorkspace();
      const ana = {
        workspaceId: ws.id,
        userId: "ana",
        role: "owner" as const,
        email: "ana@example.cl",
        addedAt: f.at(1),
      };
      const beto = { workspaceId: ws.id, userId: "beto", role: "member" as const, email: null, addedAt: f.at(2) };
      expect(await storage().members.insert(beto)).toBe(true);
      expect(await storage().members.insert(ana)).toBe(true);
      expect(await storage().members.insert({ ...ana, role: "member" })).toBe(false);
      expect(await storage().members.list(ws.id)).toEqual([ana, beto]);
      expect(await storage().members.get(ws.id, "ana")).toEqual(ana);
      expect(await storage().workspaces.getMember(ws.id, "beto")).toEqual({
        workspaceId: ws.id,
        userId: "beto",
        role: "member",
        sessionEpoch: expect.any(String),
      });
      expect(await storage().members.countOwners(ws.id)).toBe(1);
      expect(await storage().members.setRole(ws.id, "beto", "owner")).toEqual({ ...beto, role: "owner" });
      expect(await storage().members.countOwners(ws.id)).toBe(2);
      expect(await storage().members.setRole(ws.id, "nobody", "owner")).toBeNull();
      expect(await storage().members.remove(ws.id, "ana")).toBe(true);
      expect(await storage().members.remove(ws.id, "ana")).toBe(false);
      expect(await storage().members.list(ws.id)).toEqual([{ ...beto, role: "owner" }]);
      expect(await storage().members.lockWorkspace(ws.id)).toBe(true);
      expect(await storage().members.lockWorkspace(f.id())).toBe(false);
    });

    it("ends a member's console sessions by replacing the session epoch; a new membership gets a new one", async () => {
      const ws = await newWorkspace();
      const epochOf = async (userId: string) => (await storage().workspaces.getMember(ws.id, userId))?.sessionEpoch;
      const eliMember = { workspaceId: ws.id, userId: "eli", role: "admin" as const, email: null, addedAt: f.at() };
      await storage().workspaces.upsertMember({ workspaceId: ws.id, userId: "dora", role: "member" });
      await storage().members.insert(eliMember);
      const dora = await epochOf("dora");
      const eli = await epochOf("eli");
      expect(dora).toEqual(expect.any(String));
      expect(eli).toEqual(expect.any(String));
      expect(dora).not.toBe(eli);
      // A role change keeps the epoch, by either door.
      await storage().workspaces.upsertMember({ workspaceId: ws.id, userId: "dora", role: "admin" });
      await storage().members.setRole(ws.id, "eli", "member");
      expect(await epochOf("dora")).toBe(dora);
      expect(await epochOf("eli")).toBe(eli);
      expect(await storage().workspaces.endSessions(ws.id, "dora")).toBe(true);
      const after = await epochOf("dora");
      expect(after).toEqual(expect.any(String));
      expect(after).not.toBe(dora);
      expect(await epochOf("eli")).toBe(eli);
      expect(await storage().workspaces.endSessions(ws.id, "nobody")).toBe(false);
      // Removed and added again: a session from the first membership must not match the second.
      await storage().members.remove(ws.id, "eli");
      await storage().members.insert(eliMember);
      expect(await epochOf("eli")).not.toBe(eli);
      expect((await storage().members.get(ws.id, "eli"))?.role).toBe("admin");
      expect(Object.keys((await storage().members.get(ws.id, "eli"))!)).not.toContain("sessionEpoch");
    });

    it("rolls a member insert back with its transaction", async () => {
      const ws = await newWorkspace();
      const member = {
        workspaceId: ws.id,
        userId: "carla",
        role: "admin" as const,
        email: "c@example.cl",
        addedAt: f.at(),
      };
      await expect(
        storage().transaction(async (tx) => {
          await tx.members.lockWorkspace(ws.id);
          await tx.members.insert(member);
          throw new Error("abort");
        }),
      ).rejects.toThrow("abort");
      expect(await storage().members.list(ws.id)).toEqual([]);
    });
  });

  describe("admin: connector pages", () => {
    it("pages connectors oldest first after a cursor; an unknown cursor gives an empty page", async () => {
      const ws = await newWorkspace();
      const connectors = [0, 1, 2, 3, 4].map((i) => f.connector(ws.id, { systemId: `crm-${i}`, createdAt: f.at(i) }));
      for (const c of [...connectors].reverse()) await storage().connectors.insert(c);
      const first = await storage().connectorPages.listPage(ws.id, { limit: 2 });
      expect(first).toEqual(connectors.slice(0, 2));
      const second = await storage().connectorPages.listPage(ws.id, { limit: 2, startingAfter: connectors[1]!.id });
      expect(second).toEqual(connectors.slice(2, 4));
      expect(await storage().connectorPages.listPage(ws.id, { limit: 9, startingAfter: connectors[4]!.id })).toEqual(
        [],
      );
      expect(await storage().connectorPages.listPage(ws.id, { limit: 9, startingAfter: f.id() })).toEqual([]);
      const other = await newWorkspace();
      expect(await storage().connectorPages.listPage(other.id, { limit: 9, startingAfter: connectors[0]!.id })).toEqual(
        [],
      );
    });
  });

  describe("admin: API key usage", () => {
    it("writes the last use at most once per interval and reads it back", async () => {
      const ws = await newWorkspace();
      const key = w.apiKey(ws.id);
      const unused = w.apiKey(ws.id);
      await storage().apiKeys.insert(key);
      await storage().apiKeys.insert(unused);
      const minute = 60_000;
      expect(await storage().apiKeyUsage.touch(key.id, f.at(0), minute)).toBe(true);
      expect(await storage().apiKeyUsage.touch(key.id, f.at(30_000), minute)).toBe(false);
      expect((await storage().apiKeyUsage.lastUsed([key.id, unused.id])).get(key.id)).toBe(f.at(0));
      expect(await storage().apiKeyUsage.touch(key.id, f.at(60_001), minute)).toBe(true);
      const used = await storage().apiKeyUsage.lastUsed([key.id, unused.id]);
      expect([...used]).toEqual([[key.id, f.at(60_001)]]);
      expect(await storage().apiKeyUsage.touch(f.id(), f.at(0), minute)).toBe(false);
      expect(await storage().apiKeyUsage.lastUsed([])).toEqual(new Map());
    });
  });

  describe("admin: a connector's recent leads", () => {
    it("lists leads newest first with duplicate flag, outbound outcome and refused qualification, in pages", async () => {
      const ws = await newWorkspace();
      const connector = f.connector(ws.id);
      await storage().connectors.insert(connector);
      const contact = f.contact(ws.id);
      await storage().contacts.insertOrGetByPhone(contact);
      const other = f.contact(ws.id, { phoneE164: "+56911112222" });
      await storage().contacts.insertOrGetByPhone(other);
      const rejected = [{ field: "monthly_income", reason: "must be a number" }];
      const first = f.lead(ws.id, connector.id, {
        contactId: contact.id,
        receivedAt: f.at(1),
        sourceLeadId: "a",
        qualificationRejected: [],
      });
      const second = f.lead(ws.id, connector.id, {
        contactId: contact.id,
        receivedAt: f.at(2),
        sourceLeadId: "b",
        qualificationRejected: rejected,
      });
      const third = f.lead(ws.id, connector.id, {
        contactId: other.id,
        receivedAt: f.at(3),
        sourceLeadId: "c",
        qualificationRejected: [],
      });
      for (const lead of [first, second, third]) await storage().leads.insertIfNew(lead);
      await storage().outbound.insert(f.outbound(ws.id, first.id, contact.id, { status: "sent", reason: null }));
      await storage().outbound.insert(
        f.outbound(ws.id, second.id, contact.id, { status: "blocked", reason: "already welcomed" }),
      );
      const page1 = await storage().connectorLeads.listByConnector(connector.id, { limit: 2 });
      expect(page1).toEqual([
        {
          id: third.id,
          receivedAt: f.at(3),
          sourceLeadId: "c",
          duplicate: false,
          outboundStatus: null,
          outboundReason: null,
          rejectedQualification: [],
        },
        {
          id: second.id,
          receivedAt: f.at(2),
          sourceLeadId: "b",
          duplicate: true,
          outboundStatus: "blocked",
          outboundReason: "already welcomed",
          rejectedQualification: rejected,
        },
      ]);
      const page2 = await storage().connectorLeads.listByConnector(connector.id, {
        limit: 2,
        startingAfter: second.id,
      });
      expect(page2).toEqual([
        {
          id: first.id,
          receivedAt: f.at(1),
          sourceLeadId: "a",
          duplicate: false,
          outboundStatus: "sent",
          outboundReason: null,
          rejectedQualification: [],
        },
      ]);
      expect(await storage().connectorLeads.listByConnector(connector.id, { limit: 2, startingAfter: f.id() })).toEqual(
        [],
      );
    });
  });
}
