import { describe, expect, it } from "vitest";
import { whatsAppHarness } from "./support.js";

describe("inbound WhatsApp messages", () => {
  it("a stranger writing first becomes a contact without consent, in a conversation they started", async () => {
    const h = await whatsAppHarness();
    const response = await h.post(
      h.meta.batch({
        messages: [h.meta.text("56922220001", "¿Sigue disponible el depto?")],
        contacts: [{ profile: { name: "Ana Rojas" }, wa_id: "56922220001", user_id: "CL.13491208655302741918" }],
      }),
    );
    expect(response.json).toMatchObject({ messages: { recorded: 1, duplicates: 0 }, skipped: 0 });
    const contact = (await h.contactByPhone("+56922220001"))!;
    expect(contact).toMatchObject({
      name: "Ana Rojas",
      whatsappConsent: null,
      whatsappOptedOutAt: null,
      whatsappUserId: "CL.13491208655302741918",
    });
    expect(contact.whatsappLastInboundAt).toBeDefined();
    const [message] = await h.thread(contact.id);
    expect(message).toMatchObject({ sender: "contact", content: "¿Sigue disponible el depto?", kind: "text" });
    const started = await h.storage.events.listByWorkspace(h.workspace.id, { type: "conversation.started" });
    expect(started.map((e) => e.data)).toEqual([
      expect.objectContaining({ contact_id: contact.id, channel: "whatsapp", started_by: "contact" }),
    ]);
  });

  it("a lead's reply joins the thread our first message opened, and opens the 24-hour window", async () => {
    const h = await whatsAppHarness();
    const lead = await h.lead("+56922220002");
    expect(lead.outbound.status).toBe("sent");
    const contact = (await h.contactByPhone("+56922220002"))!;
    expect(contact.whatsappLastInboundAt).toBeUndefined();
    await h.post(h.meta.batch({ messages: [h.meta.text("56922220002", "Hola, sí me interesa")] }));
    const thread = await h.thread(contact.id);
    expect(thread.map((m) => m.sender)).toEqual(["agent", "contact"]);
    const started = await h.storage.events.listByWorkspace(h.workspace.id, { type: "conversation.started" });
    expect(started).toHaveLength(1);
    expect((await h.contactByPhone("+56922220002"))!.whatsappLastInboundAt).toBeDefined();
  });

  it("stores every kind: buttons and interactive replies with their context, media by id, reactions, location, unknown types", async () => {
    const h = await whatsAppHarness();
    const from = "56922220003";
    const m = h.meta;
    const messages = [
      m.message(
        from,
        "button",
        { text: "Quiero visitar", payload: "VISIT" },
        { context: { from: "15550783881", id: "wamid.template1" } },
      ),
      m.message(from, "interactive", { type: "list_reply", list_reply: { id: "u101", title: "Depto 101" } }),
      m.message(from, "image", { id: "media-123", mime_type: "image/jpeg", sha256: "abc", caption: "la fachada" }),
      m.message(from, "reaction", { message_id: "wamid.ours", emoji: "👍" }),
      m.message(from, "location", { latitude: -33.45, longitude: -70.66, name: "Metro Baquedano" }),
      m.message(from, "order", { catalog_id: "c1", product_items: [] }),
    ];
    const response = await h.post(m.batch({ messages }));
    expect(response.json.messages).toEqual({ recorded: 6, duplicates: 0 });
    const thread = await h.thread((await h.contactByPhone(`+${from}`))!.id);
    expect(thread.map((x) => [x.kind, x.content])).toEqual([
      ["button", "[button] Quiero visitar"],
      ["interactive", "[reply] Depto 101"],
      ["image", "[image] la fachada"],
      ["reaction", "[reaction] 👍"],
      ["location", "[location] Metro Baquedano"],
      ["order", "[order message]"],
    ]);
    expect(thread[0]).toMatchObject({ replyTo: "wamid.template1", details: { button: { payload: "VISIT" } } });
    expect(thread[2]!.details).toMatchObject({ image: { id: "media-123", caption: "la fachada" } });
  });

  it("puts a click-to-WhatsApp ad's referral on the contact's newest opportunity, once", async () => {
    const h = await whatsAppHarness();
    await h.lead("+56922220004");
    const referral = { source_url: "https://fb.me/ad", source_type: "ad", source_id: "ad-42", ctwa_clid: "clid-1" };
    await h.post(h.meta.batch({ messages: [h.meta.text("56922220004", "Vi el aviso", { referral })] }));
    await h.post(
      h.meta.batch({
        messages: [h.meta.text("56922220004", "Otro aviso", { referral: { ...referral, source_id: "ad-43" } })],
      }),
    );
    const contact = (await h.contactByPhone("+56922220004"))!;
    const [opportunity] = await h.storage.opportunities.listByContact(contact.id);
    expect(opportunity!.attribution).toMatchObject({ channel: "whatsapp", referral: { source_id: "ad-42" } });
  });

  it("records a redelivered batch once: messages, conversations and events", async () => {
    const h = await whatsAppHarness();
    const batch = h.meta.batch({ messages: [h.meta.text("56922220005", "uno"), h.meta.text("56922220005", "dos")] });
    expect((await h.post(batch)).json.messages).toEqual({ recorded: 2, duplicates: 0 });
    expect((await h.post(batch)).json.messages).toEqual({ recorded: 0, duplicates: 2 });
    const contact = (await h.contactByPhone("+56922220005"))!;
    expect((await h.thread(contact.id)).map((m) => m.content)).toEqual(["uno", "dos"]);
    expect(await h.storage.events.listByWorkspace(h.workspace.id, { type: "conversation.started" })).toHaveLength(1);
  });

  it("finds a username-only sender by their business-scoped user id, and skips an item that names nobody", async () => {
    const h = await whatsAppHarness();
    const fromUser = {
      id: h.meta.nextId(),
      timestamp: h.meta.seconds(),
      type: "text",
      text: { body: "hola" },
      from_user_id: "CL.999",
    };
    const nobody = { id: h.meta.nextId(), timestamp: h.meta.seconds(), type: "text", text: { body: "?" } };
    const response = await h.post(
      h.meta.batch({ messages: [fromUser, nobody, { ...fromUser, id: h.meta.nextId() }], contacts: [] }),
    );
    expect(response.json).toMatchObject({ messages: { recorded: 2 }, skipped: 1 });
    const contact = (await h.storage.contacts.findByWhatsAppUserId(h.workspace.id, "CL.999"))!;
    expect(contact.phoneE164).toBeNull();
    expect(await h.thread(contact.id)).toHaveLength(2);
    expect(
      h.logs.some(
        (l) => l.message === "WhatsApp webhook item skipped" && /neither a phone/.test(String(l.fields.reason)),
      ),
    ).toBe(true);
  });

  it("never logs a person's words or phone", async () => {
    const h = await whatsAppHarness();
    await h.post(h.meta.batch({ messages: [h.meta.text("56922220006", "mi RUT es 12.345.678-9")] }));
    const logged = JSON.stringify(h.logs.filter((l) => l.message.startsWith("WhatsApp")));
    expect(logged).not.toContain("12.345.678-9");
    expect(logged).not.toContain("56922220006");
  });
});
