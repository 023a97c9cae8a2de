import { type OutgoingMessage } from "@vitrina/core";
import { createConversationService } from "@vitrina/core/capabilities";
import { createManualClock } from "@vitrina/core/testing";
import { fixtures } from "@vitrina/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends, openTestStorage } from "./support.js";

// send_message records before it sends: text the database cannot store (PostgreSQL text has no
// U+0000) is refused before the provider sees it, so an agent's retry never sends twice.
describe.each(backends)("conversations.sendHumanMessage on %s", (backend) => {
  let storage: Awaited<ReturnType<typeof openTestStorage>>["storage"];
  const f = fixtures();
  const workspace = f.workspace();
  const contact = f.contact(workspace.id);
  const conversation = f.conversation(workspace.id, contact.id);
  beforeAll(async () => {
    storage = (await openTestStorage(backend)).storage;
    await storage.workspaces.insert(workspace);
    await storage.contacts.insertOrGetByPhone(contact);
    // The contact wrote before the clock below: the 24-hour service window is open.
    await storage.contacts.recordInbound(workspace.id, contact.id, "2026-02-01T09:00:00.000Z");
    await storage.conversations.insert(conversation);
  });
  afterAll(async () => {
    await storage.close();
  });

  it("sends nothing when the message cannot be recorded", async () => {
    const sent: OutgoingMessage[] = [];
    const messaging = {
      send: async (m: OutgoingMessage) => (sent.push(m), { status: "sent" as const, providerMessageId: null }),
    };
    const deps = { storage, messaging, clock: createManualClock("2026-02-01T10:00:00.000Z"), ids: () => f.id() };
    await expect(
      createConversationService(deps).sendHumanMessage({
        workspaceId: workspace.id,
        conversationId: conversation.id,
        text: "Hola\u0000",
      }),
    ).rejects.toThrow();
    expect(sent).toEqual([]);
    expect(await storage.messages.listByConversation(conversation.id)).toEqual([]);
    await createConversationService(deps).sendHumanMessage({
      workspaceId: workspace.id,
      conversationId: conversation.id,
      text: "Hola",
    });
    expect(sent).toHaveLength(1);
  });
});
