import { memoryStorage } from "@vitrina/adapter-memory";
import { silentLogger, type Storage } from "@vitrina/core";
import { createManualClock, fixtures } from "@vitrina/core/testing";
import { describe, expect, it } from "vitest";
import { EXPORT_PAGE_SIZE } from "../../src/privacy/export-document.js";
import { createPrivacyService } from "../../src/privacy/privacy-service.js";

const MESSAGES = 100_000;

// A person with 100,000 messages: the export is produced page by page as the reader asks for it,
// so the first bytes of their messages go out after one page was read, not after all of them.
describe("the export stream", () => {
  it(`reads ${MESSAGES} messages one page at a time, as the reader pulls, and still writes them all`, async () => {
    const f = fixtures();
    const storage = memoryStorage();
    const workspace = f.workspace();
    await storage.workspaces.insert(workspace);
    const contact = f.contact(workspace.id);
    await storage.contacts.insertOrGetByPhone(contact);
    const conversation = f.conversation(workspace.id, contact.id);
    await storage.conversations.insert(conversation);
    await storage.transaction(async (tx) => {
      for (let i = 0; i < MESSAGES; i++)
        await tx.messages.insert({
          id: `m${String(i).padStart(6, "0")}`,
          workspaceId: workspace.id,
          conversationId: conversation.id,
          sender: i % 2 === 0 ? "contact" : "agent",
          content: `mensaje número ${i}`,
          createdAt: f.at(i),
        });
    });
    let messagePages = 0;
    const counting: Storage = {
      ...storage,
      personalData: {
        ...storage.personalData,
        exportPage: (...args) => {
          if (args[2] === "messages") messagePages++;
          return storage.personalData.exportPage(...args);
        },
      },
    };
    const privacy = createPrivacyService({
      storage: counting,
      clock: createManualClock(Date.UTC(2026, 5, 1)),
      ids: () => crypto.randomUUID(),
      logger: silentLogger,
      hasher: null,
    });
    const reader = (await privacy.exportContact(workspace.id, contact.id)).getReader();
    const decoder = new TextDecoder();
    let text = "";
    let pagesWhenFirstMessageArrived: number | null = null;
    let largestChunk = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      largestChunk = Math.max(largestChunk, value.length);
      text += decoder.decode(value, { stream: true });
      if (pagesWhenFirstMessageArrived === null && text.includes("mensaje número 0"))
        pagesWhenFirstMessageArrived = messagePages;
    }
    const pages = Math.ceil(MESSAGES / EXPORT_PAGE_SIZE);
    console.info(
      `export of ${MESSAGES} messages: ${messagePages} pages read, the first message out after ${pagesWhenFirstMessageArrived} page(s), largest chunk ${largestChunk} bytes, ${text.length} characters in all`,
    );
    // The stream pulls at most one page ahead of what it has handed out.
    expect(pagesWhenFirstMessageArrived).toBeLessThanOrEqual(2);
    expect(messagePages).toBeGreaterThanOrEqual(pages);
    expect(largestChunk).toBeLessThan(EXPORT_PAGE_SIZE * 400);
    const document = JSON.parse(text);
    expect(document.messages).toHaveLength(MESSAGES);
    expect(document.messages[MESSAGES - 1]).toMatchObject({ id: "m099999", content: `mensaje número ${MESSAGES - 1}` });
    expect(document.messages.every((m: { conversationId: string }) => m.conversationId === conversation.id)).toBe(true);
  }, 120_000);

  it("stops reading storage when the reader cancels", async () => {
    const f = fixtures();
    const storage = memoryStorage();
    const workspace = f.workspace();
    await storage.workspaces.insert(workspace);
    const contact = f.contact(workspace.id);
    await storage.contacts.insertOrGetByPhone(contact);
    let pages = 0;
    const counting: Storage = {
      ...storage,
      personalData: { ...storage.personalData, exportPage: (...a) => (pages++, storage.personalData.exportPage(...a)) },
    };
    const privacy = createPrivacyService({
      storage: counting,
      clock: createManualClock(0),
      ids: () => crypto.randomUUID(),
      logger: silentLogger,
      hasher: null,
    });
    const reader = (await privacy.exportContact(workspace.id, contact.id)).getReader();
    await reader.read();
    await reader.cancel();
    const after = pages;
    expect(after).toBeLessThan(7);
    await expect(privacy.exportContact(workspace.id, "nobody")).rejects.toMatchObject({ code: "not_found" });
    expect(pages).toBe(after);
  });
});
