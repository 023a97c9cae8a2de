import { memoryStorage } from "@vitrina/adapter-memory";
import { MessagingError, type MessagingTransport } from "@vitrina/core";
import { createConversationService } from "@vitrina/core/capabilities";
import { createManualClock } from "@vitrina/core/testing";
import { fixtures } from "@vitrina/core/testing";
import { describe, expect, it } from "vitest";

async function setup(over: { optedOut?: boolean } = {}) {
  const storage = memoryStorage();
  const f = fixtures();
  const workspace = f.workspace();
  const contact = f.contact(workspace.id, { whatsappOptedOutAt: over.optedOut ? f.at() : null });
  const conversation = f.conversation(workspace.id, contact.id);
  await storage.workspaces.insert(workspace);
  await storage.contacts.insertOrGetByPhone(contact);
  // The contact wrote an hour before the clock below: the 24-hour service window is open.
  await storage.contacts.recordInbound(workspace.id, contact.id, "2026-02-01T09:00:00.000Z");
  await storage.conversations.insert(conversation);
  const clock = createManualClock("2026-02-01T10:00:00.000Z");
  const sent: unknown[] = [];
  const send = (messaging: MessagingTransport) =>
    createConversationService({ storage, messaging, clock, ids: () => "msg-1" }).sendHumanMessage({
      workspaceId: workspace.id,
      conversationId: conversation.id,
      text: "Hola",
    });
  return { storage, contact, conversation, sent, send };
}

describe("conversations.sendHumanMessage", () => {
  it("sends to the contact's phone, then stores the message as human and bumps the conversation", async () => {
    const s = await setup();
    const result = await s.send({
      send: async (m) => (s.sent.push(m), { status: "queued", providerMessageId: "wamid.1" }),
    });
    expect(s.sent).toEqual([
      { channel: "whatsapp", workspaceId: s.contact.workspaceId, to: s.contact.phoneE164, text: "Hola" },
    ]);
    expect(result.delivery.status).toBe("queued");
    expect(await s.storage.messages.listByConversation(s.conversation.id)).toEqual([
      {
        id: "msg-1",
        workspaceId: s.conversation.workspaceId,
        conversationId: s.conversation.id,
        sender: "human",
        content: "Hola",
        // The provider's id, so its delivery reports join the message.
        providerMessageId: "wamid.1",
        createdAt: "2026-02-01T10:00:00.000Z",
      },
    ]);
    expect((await s.storage.conversations.get(s.conversation.workspaceId, s.conversation.id))?.updatedAt).toBe(
      "2026-02-01T10:00:00.000Z",
    );
  });

  it("records the message before handing it to the provider", async () => {
    const s = await setup();
    let recordedAtSend: unknown[] = [];
    await s.send({
      send: async () => (
        (recordedAtSend = await s.storage.messages.listByConversation(s.conversation.id)),
        { status: "sent", providerMessageId: null }
      ),
    });
    expect(recordedAtSend).toEqual([expect.objectContaining({ id: "msg-1", content: "Hola" })]);
  });

  it("removes the record when the provider refuses", async () => {
    const s = await setup();
    await expect(
      s.send({
        send: async () => {
          throw new MessagingError("provider said no");
        },
      }),
    ).rejects.toThrow(/provider said no/);
    expect(await s.storage.messages.listByConversation(s.conversation.id)).toEqual([]);
  });

  it("refuses a contact who opted out, without calling the provider", async () => {
    const s = await setup({ optedOut: true });
    await expect(
      s.send({ send: async (m) => (s.sent.push(m), { status: "sent", providerMessageId: null }) }),
    ).rejects.toMatchObject({ code: "forbidden" });
    expect(s.sent).toEqual([]);
  });

  it("refuses a conversation closed after its status was read, recording and sending nothing", async () => {
    const s = await setup();
    const read = s.storage.conversations.get.bind(s.storage.conversations);
    // The conversation closes between the status check and the transaction that records the message.
    Object.assign(s.storage.conversations, {
      get: async (workspaceId: string, id: string) => {
        const seen = await read(workspaceId, id);
        await s.storage.conversations.update({ ...s.conversation, status: "closed" });
        return seen;
      },
    });
    await expect(
      s.send({ send: async (m) => (s.sent.push(m), { status: "sent", providerMessageId: null }) }),
    ).rejects.toMatchObject({ code: "conflict" });
    expect(s.sent).toEqual([]);
    expect(await s.storage.messages.listByConversation(s.conversation.id)).toEqual([]);
  });
});
