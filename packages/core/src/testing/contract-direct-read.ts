import { expect, describe } from "vitest";
import { it } from "./contract-test.js";
import { printSkip, type ContractSection } from "./contract-section.js";

/** What the adapter stored, read back by the adapter author's direct reader rather than the adapter. */
export const directReadSection: ContractSection = {
  name: "direct read-back",
  unavailable: ({ reader }) =>
    reader === undefined ? "the adapter offers no direct reader (`directReader` option)" : null,
  run({ storage, f, reader }) {
    describe("direct read-back", () => {
      it("stores workspaces, members, connectors, contacts and conversations as given", async () => {
        const s = storage();
        const workspace = f.workspace({ name: "Ñuñoa \u{1F3E0} Propiedades", vertical: "generic", currency: "USD" });
        await s.workspaces.insert(workspace);
        await s.workspaces.upsertMember({ workspaceId: workspace.id, userId: "u-1", role: "admin" });
        const connector = f.connector(workspace.id);
        await s.connectors.insert(connector);
        const rotated = await s.connectors.updateSecret(connector.id, "v1.rotated.sealed", f.at(5000));
        const consent = {
          granted: true,
          timestamp: f.at(1),
          source: "form",
          purpose: "sales",
          connectorId: connector.id,
          leadEventId: f.id(),
          recordedAt: f.at(2),
        };
        const contact = f.contact(workspace.id, {
          email: "maría@example.cl",
          tags: ["vip", "ñ"],
          score: 0.25,
          ltv: 1200.5,
          whatsappConsent: consent,
          whatsappOptedOutAt: f.at(3),
        });
        await s.contacts.insertOrGetByPhone(contact);
        const conversation = f.conversation(workspace.id, contact.id, {
          status: "pending",
          escalatedAt: f.at(7),
          createdAt: f.at(4),
          updatedAt: f.at(8),
        });
        await s.conversations.insert(conversation);

        expect(await reader!.workspace(workspace.id)).toEqual(workspace);
        expect(await reader!.member(workspace.id, "u-1")).toEqual({
          workspaceId: workspace.id,
          userId: "u-1",
          role: "admin",
        });
        expect(await reader!.connector(connector.id)).toEqual(rotated);
        expect(rotated).toEqual({
          ...connector,
          sealedSecret: "v1.rotated.sealed",
          secretVersion: 2,
          rotatedAt: f.at(5000),
        });
        expect(await reader!.contact(contact.id)).toEqual(contact);
        expect(await reader!.conversation(conversation.id)).toEqual(conversation);
        expect(await reader!.workspace(f.id())).toBeNull();
      });
    });
  },
};

/** `listenForDeliveries` is optional: adapters without it leave other processes' workers to their sweep. */
export const deliveryListenerSection: ContractSection = {
  name: "delivery notifications",
  run({ storage }) {
    describe("delivery notifications", () => {
      it("listens, and the unsubscribe it resolves to stops listening", async (test) => {
        if (storage().listenForDeliveries === undefined) {
          const reason = "the adapter has no listenForDeliveries (workers in other processes rely on their sweep)";
          printSkip("delivery notifications", reason);
          test.skip(reason);
          return;
        }
        const unlisten = await storage().listenForDeliveries!(() => {});
        await expect(unlisten()).resolves.toBeUndefined();
      });
    });
  },
};
