import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { whatsAppHarness, type WhatsAppHarness } from "./support.js";

/** A lead for `phone` whose first message went out; answers its provider id. */
async function sentFirstMessage(h: WhatsAppHarness, phone: string) {
  const lead = await h.lead(phone);
  const outbound = (await h.storage.outbound.listByWorkspace(h.workspace.id)).find(
    (o) => o.leadEventId === lead.lead_event_id,
  )!;
  return { lead, wamid: outbound.providerMessageId!, leadEventId: lead.lead_event_id as string };
}

describe("delivery statuses", () => {
  it("move the first message forward (shown on a duplicate lead and in the thread), never backwards", async () => {
    const h = await whatsAppHarness();
    const phone = "+56944440001";
    const { wamid, leadEventId } = await sentFirstMessage(h, phone);
    const outboundOf = async () => (await h.storage.outbound.findByLeadEvent(leadEventId))!;
    const t = Date.now() - 10_000;
    await h.post(h.meta.batch({ statuses: [h.meta.status(wamid, "read", "56944440001", { at: t + 3000 })] }));
    await h.post(h.meta.batch({ statuses: [h.meta.status(wamid, "sent", "56944440001", { at: t + 1000 })] }));
    await h.post(h.meta.batch({ statuses: [h.meta.status(wamid, "delivered", "56944440001", { at: t + 2000 })] }));
    const stored = await outboundOf();
    expect(stored.delivery).toMatchObject({
      status: "read",
      sentAt: expect.any(String),
      deliveredAt: expect.any(String),
      readAt: expect.any(String),
    });
    const contact = (await h.contactByPhone(phone))!;
    const [copy] = await h.thread(contact.id);
    expect(copy).toMatchObject({ sender: "agent", providerMessageId: wamid, delivery: { status: "read" } });
  });

  it("a duplicate lead answers the status as it is now, with a failure in plain words", async () => {
    const h = await whatsAppHarness();
    const body = {
      event: "lead.created",
      source_lead_id: "crm-fixed-1",
      contact: { phone_e164: "+56944440002", name: "Ana" },
      whatsapp_consent: { granted: true, timestamp: new Date(Date.now() - 60_000).toISOString() },
    };
    const first = await h.lead("+56944440002", body);
    const outbound = (await h.storage.outbound.findByLeadEvent(first.lead_event_id))!;
    await h.post(
      h.meta.batch({
        statuses: [
          h.meta.status(outbound.providerMessageId!, "failed", "56944440002", {
            error: { code: 131026, title: "Message undeliverable" },
          }),
        ],
      }),
    );
    const again = await h.lead("+56944440002", body);
    expect(again.duplicate).toBe(true);
    expect(again.outbound).toEqual({
      status: "failed",
      reason: expect.stringMatching(/^WhatsApp error 131026: undeliverable/),
    });
  });

  it("keeps statuses for a message it hasn't recorded yet, and applies them once it is", async () => {
    const h = await whatsAppHarness();
    const response = await h.post(
      h.meta.batch({ statuses: [h.meta.status("wamid.notyet", "delivered", "56944440003")] }),
    );
    expect(response.json.statuses).toEqual({ recorded: 1, unknownMessages: 1 });
    expect(await h.storage.deliveryReports.get(h.workspace.id, "wamid.notyet")).toMatchObject({ status: "delivered" });
    expect(h.logs.some((l) => l.message.startsWith("WhatsApp statuses for messages Vitrina has not recorded"))).toBe(
      true,
    );
  });

  it("records a batch of 1,000 statuses, every one", async () => {
    const h = await whatsAppHarness();
    const { wamid } = await sentFirstMessage(h, "+56944440004");
    const statuses = Array.from({ length: 999 }, (_, i) =>
      h.meta.status(`wamid.bulk-${i}`, "delivered", "56900000000"),
    );
    statuses.push(h.meta.status(wamid, "delivered", "56944440004"));
    const response = await h.post(h.meta.batch({ statuses }));
    expect(response.status).toBe(200);
    expect(response.json.statuses).toEqual({ recorded: 1000, unknownMessages: 999 });
    expect(await h.storage.deliveryReports.get(h.workspace.id, "wamid.bulk-998")).toMatchObject({
      status: "delivered",
    });
    expect(await h.storage.deliveryReports.get(h.workspace.id, wamid)).toMatchObject({ status: "delivered" });
  });

  it("records every item of a 3 MB batch spread over several entries and changes", async () => {
    const h = await whatsAppHarness();
    const text = "á".repeat(5_000); // 10 KB of UTF-8 per message
    const entries = Array.from({ length: 3 }, (_, e) => {
      const from = `5694444100${e}`;
      const messages = Array.from({ length: 100 }, () => h.meta.text(from, text));
      return (h.meta.batch({ messages }).entry as unknown[])[0];
    });
    const body = JSON.stringify({ object: "whatsapp_business_account", entry: entries });
    expect(body.length).toBeGreaterThan(1_400_000);
    expect(new TextEncoder().encode(body).length).toBeGreaterThan(3_000_000);
    const response = await h.post(body);
    expect(response.status).toBe(200);
    expect(response.json.messages).toEqual({ recorded: 300, duplicates: 0 });
    for (let e = 0; e < 3; e++) {
      const contact = (await h.contactByPhone(`+5694444100${e}`))!;
      expect(await h.thread(contact.id)).toHaveLength(100);
    }
  });

  it("reaches one final state whatever the order and duplication of one message's statuses (fast-check)", async () => {
    const h = await whatsAppHarness();
    const statuses = ["sent", "delivered", "read", "failed"] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.constantFrom(...statuses), { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat({ max: 10 }), { minLength: 1, maxLength: 12 }),
        fc.nat({ max: 3 }),
        async (present, picks, perBatch) => {
          const wamid = h.meta.nextId();
          const t = Date.UTC(2026, 10, 1) / 1000;
          const status = (s: (typeof statuses)[number]) =>
            h.meta.status(wamid, s, "56900000001", {
              at: (t + statuses.indexOf(s)) * 1000,
              ...(s === "failed" && { error: { code: 131026, title: "undeliverable" } }),
            });
          // Every present status at least once, then duplicates, in a shuffled order.
          const sequence = [...present, ...picks.map((i) => present[i % present.length]!)].sort(
            () => Math.random() - 0.5,
          );
          for (let i = 0; i < sequence.length; i += perBatch + 1)
            await h.post(h.meta.batch({ statuses: sequence.slice(i, i + perBatch + 1).map(status) }));
          const state = (await h.storage.deliveryReports.get(h.workspace.id, wamid))!;
          const rank = ["sent", "failed", "delivered", "read"];
          const expected = [...present].sort((a, b) => rank.indexOf(b) - rank.indexOf(a))[0];
          expect(state.status).toBe(expected);
          for (const s of statuses) expect(state[`${s}At` as const] !== null).toBe(present.includes(s));
          expect(state.failureCode).toBe(present.includes("failed") ? 131026 : null);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("send_message and the 24-hour service window", () => {
  it("refuses free text outside the window, naming it, and records nothing; sends within it", async () => {
    const h = await whatsAppHarness();
    await h.lead("+56944440005");
    const contact = (await h.contactByPhone("+56944440005"))!;
    const conversation = (await h.storage.conversations.findActive(h.workspace.id, contact.id, "whatsapp"))!;
    const send = () =>
      h.vitrina.conversations.sendHumanMessage({
        workspaceId: h.workspace.id,
        conversationId: conversation.id,
        text: "Hola",
      });
    const error = await send().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "window_closed" });
    expect((error as Error).message).toMatch(/never written/);
    expect(await h.thread(contact.id)).toHaveLength(1);
    await h.post(h.meta.batch({ messages: [h.meta.text("56944440005", "Hola!")] }));
    const sent = await send();
    expect(sent.message).toMatchObject({ sender: "human", content: "Hola" });
    expect(await h.thread(contact.id)).toHaveLength(3);
  });
});

describe("the window's error", () => {
  it("names when the window closed, 24 hours after the contact's last message", async () => {
    const { assertServiceWindowOpen } = await import("../../src/channels/whatsapp/service-window.js");
    const contact = { whatsappLastInboundAt: "2026-11-01T10:00:00.000Z" } as Parameters<
      typeof assertServiceWindowOpen
    >[0];
    expect(() => assertServiceWindowOpen(contact, new Date("2026-11-02T09:59:59.000Z"))).not.toThrow();
    expect(() => assertServiceWindowOpen(contact, new Date("2026-11-02T10:00:00.000Z"))).toThrow(
      /closed at 2026-11-02T10:00:00.000Z, 24 hours after the contact's last message/,
    );
  });
});

describe("a first message whose send answer was lost", () => {
  it("is settled by a status echoing its correlation: provider id, delivery, its place in the thread", async () => {
    const { MessagingError } = await import("@vitrina/core");
    const sent: unknown[] = [];
    // The provider took the message, but its answer never arrived (a timeout): recorded as failed.
    const h = await whatsAppHarness({
      messaging: {
        send: async (message) => {
          sent.push(message);
          throw new MessagingError("WhatsApp Cloud API unreachable: the operation was aborted due to timeout");
        },
      },
    });
    const lead = await h.lead("+56944440009");
    expect(lead.outbound.status).toBe("failed");
    const correlation = (sent[0] as { correlationId: string }).correlationId;
    expect(correlation).toBe(`vitrina:first-message:${lead.lead_event_id}`);
    const contact = (await h.contactByPhone("+56944440009"))!;
    expect(await h.thread(contact.id)).toEqual([]);
    const wamid = h.meta.nextId();
    const status = h.meta.status(wamid, "delivered", "56944440009", { biz_opaque_callback_data: correlation });
    expect((await h.post(h.meta.batch({ statuses: [status] }))).status).toBe(200);
    const outbound = (await h.storage.outbound.findByLeadEvent(lead.lead_event_id))!;
    expect(outbound).toMatchObject({ providerMessageId: wamid, delivery: { status: "delivered" } });
    const [copy] = await h.thread(contact.id);
    expect(copy).toMatchObject({
      sender: "agent",
      providerMessageId: wamid,
      content: expect.stringMatching(/^\[template vitrina_welcome\]/),
    });
    // A redelivery settles nothing more: one thread message, one conversation.started.
    await h.post(h.meta.batch({ statuses: [status] }));
    expect(await h.thread(contact.id)).toHaveLength(1);
    expect(await h.storage.events.listByWorkspace(h.workspace.id, { type: "conversation.started" })).toHaveLength(1);
    expect(h.logs.some((l) => l.message.startsWith("first message whose send answer was lost settled"))).toBe(true);
  });
});
