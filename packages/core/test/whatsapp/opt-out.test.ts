import { describe, expect, it } from "vitest";
import { DEFAULT_OPT_OUT_KEYWORDS, matchKeyword, DEFAULT_OPT_IN_KEYWORDS } from "@vitrina/core/whatsapp";
import { whatsAppHarness } from "./support.js";

const lists = { optOut: DEFAULT_OPT_OUT_KEYWORDS, optIn: DEFAULT_OPT_IN_KEYWORDS };

describe("opt-out keywords", () => {
  it("match alone, ignoring case, accents, surrounding punctuation and emoji; never inside a sentence", () => {
    for (const said of [
      "STOP",
      "stop",
      " Stop. ",
      "¡BAJA!",
      "baja 🙏",
      "Salir",
      "CANCELAR",
      "detener",
      "Dar de baja",
      "No más",
      "Stop promotions",
    ])
      expect(matchKeyword(said, lists), said).toBe("opt_out");
    for (const said of ["START", "Alta", "¡volver!"]) expect(matchKeyword(said, lists), said).toBe("opt_in");
    for (const said of [
      "stop sending me offers",
      "no me den de baja",
      "bajar el precio?",
      "stopp",
      "",
      "!!!",
      "x".repeat(500),
    ])
      expect(matchKeyword(said, lists), said).toBeNull();
  });
});

describe("opting out and back in on the channel", () => {
  it("a BAJA reply opts the contact out, records it in the ledger, and blocks the next lead with consent", async () => {
    const h = await whatsAppHarness();
    const phone = "+56933330001";
    expect((await h.lead(phone)).outbound.status).toBe("sent");
    const reply = h.meta.text("56933330001", "BAJA");
    const response = await h.post(h.meta.batch({ messages: [reply] }));
    expect(response.json).toMatchObject({ optOuts: 1, messages: { recorded: 1 } });
    const contact = (await h.contactByPhone(phone))!;
    expect(contact.whatsappOptedOutAt).not.toBeNull();
    const ledger = await h.vitrina.contacts.consentLedger(h.workspace.id, contact.id);
    expect(ledger.map((e) => [e.kind, e.source])).toEqual([
      ["opted_out", "keyword"],
      ["granted", "lead"],
    ]);
    expect(ledger[0]!.evidence).toMatchObject({ provider_message_id: reply.id, words: "BAJA" });
    const next = await h.lead(phone);
    expect(next.outbound).toEqual({
      status: "blocked",
      reason: expect.stringMatching(/^contact opted out of WhatsApp at /),
    });
    expect(h.messaging.sent.filter((m) => m.to === phone)).toHaveLength(1);
    // The blocked lead's consent is in the ledger too (evidence, not a resume); a redelivery of the reply adds nothing.
    const before = await h.vitrina.contacts.consentLedger(h.workspace.id, contact.id);
    // Newest first by when it happened: this lead says consent was given a minute before it was sent.
    expect(before.map((e) => e.kind)).toEqual(["opted_out", "granted", "granted"]);
    await h.post(h.meta.batch({ messages: [reply] }));
    expect(await h.vitrina.contacts.consentLedger(h.workspace.id, contact.id)).toEqual(before);
  });

  it("a lead with consent doesn't undo an opt-out; the person's START does", async () => {
    const h = await whatsAppHarness();
    const phone = "+56933330002";
    await h.post(h.meta.batch({ messages: [h.meta.text("56933330002", "stop")] }));
    expect((await h.lead(phone)).outbound.status).toBe("blocked");
    await h.post(h.meta.batch({ messages: [h.meta.text("56933330002", "START")] }));
    const contact = (await h.contactByPhone(phone))!;
    expect(contact.whatsappOptedOutAt).toBeNull();
    expect((await h.lead(phone)).outbound.status).toBe("sent");
  });

  it("a workspace's own keyword list replaces the defaults", async () => {
    const h = await whatsAppHarness();
    await h.vitrina.whatsapp.channels.put({
      workspaceId: h.workspace.id,
      phoneNumberId: h.phoneNumberId,
      optOutKeywords: ["basta"],
      optInKeywords: ["vuelvo"],
    });
    await h.post(h.meta.batch({ messages: [h.meta.text("56933330003", "STOP")] }));
    expect((await h.contactByPhone("+56933330003"))!.whatsappOptedOutAt).toBeNull();
    await h.post(h.meta.batch({ messages: [h.meta.text("56933330003", "Basta!")] }));
    expect((await h.contactByPhone("+56933330003"))!.whatsappOptedOutAt).not.toBeNull();
  });

  it("WhatsApp's Stop promotions preference opts out (creating the contact), Resume opts back in, in either order of arrival", async () => {
    const h = await whatsAppHarness();
    const stop = h.meta.preference("56933330004", "stop", Date.now() - 60_000);
    const resume = h.meta.preference("56933330004", "resume", Date.now() - 30_000);
    // The resume arrives first: the older stop must not undo it.
    await h.post(h.meta.batch({ user_preferences: [resume] }));
    expect(await h.contactByPhone("+56933330004")).toBeNull();
    const stopped = await h.post(h.meta.batch({ user_preferences: [stop] }));
    expect(stopped.json).toMatchObject({ preferences: { recorded: 1 }, optOuts: 1 });
    const contact = (await h.contactByPhone("+56933330004"))!;
    expect(contact.whatsappOptedOutAt).not.toBeNull();
    await h.post(h.meta.batch({ user_preferences: [resume] }));
    expect((await h.contactByPhone("+56933330004"))!.whatsappOptedOutAt).toBeNull();
    // Redelivered, the stop changes nothing: the ledger has it once, and the newer resume stands.
    await h.post(h.meta.batch({ user_preferences: [stop] }));
    expect((await h.contactByPhone("+56933330004"))!.whatsappOptedOutAt).toBeNull();
    const ledger = await h.vitrina.contacts.consentLedger(h.workspace.id, contact.id);
    expect(ledger.map((e) => [e.kind, e.source])).toEqual([
      ["resumed", "whatsapp_preference"],
      ["opted_out", "whatsapp_preference"],
    ]);
  });

  it("a send that fails with 131050 opts the recipient out; other failures don't", async () => {
    const h = await whatsAppHarness();
    const phone = "+56933330005";
    await h.lead(phone);
    const [outbound] = await h.storage.outbound.listByWorkspace(h.workspace.id);
    const wamid = outbound!.providerMessageId!;
    await h.post(
      h.meta.batch({
        statuses: [h.meta.status(wamid, "failed", "56933330005", { error: { code: 130472, title: "experiment" } })],
      }),
    );
    expect((await h.contactByPhone(phone))!.whatsappOptedOutAt).toBeNull();
    const other = await h.lead("+56933330006");
    void other;
    const [, second] = await h.storage.outbound.listByWorkspace(h.workspace.id);
    const response = await h.post(
      h.meta.batch({
        statuses: [
          h.meta.status(second!.providerMessageId!, "failed", "56933330006", {
            error: { code: 131050, title: "stopped marketing" },
          }),
        ],
      }),
    );
    expect(response.json.optOuts).toBe(1);
    const contact = (await h.contactByPhone("+56933330006"))!;
    expect(contact.whatsappOptedOutAt).not.toBeNull();
    const [entry] = await h.vitrina.contacts.consentLedger(h.workspace.id, contact.id);
    expect(entry).toMatchObject({ kind: "opted_out", source: "error_131050", evidence: { error_code: 131050 } });
    expect((await h.lead("+56933330006")).outbound.status).toBe("blocked");
  });

  it("an opt-out asked off the channel is recorded with who asked", async () => {
    const h = await whatsAppHarness();
    await h.lead("+56933330007");
    const contact = (await h.contactByPhone("+56933330007"))!;
    await h.vitrina.contacts.optOutContact({
      workspaceId: h.workspace.id,
      contactId: contact.id,
      source: "console",
      sourceRef: "user-9",
      note: "pidió por teléfono",
    });
    const [entry] = await h.vitrina.contacts.consentLedger(h.workspace.id, contact.id);
    expect(entry).toMatchObject({
      kind: "opted_out",
      source: "console",
      sourceRef: "user-9",
      evidence: { request: "off_channel", note: "pidió por teléfono" },
    });
    await expect(
      h.vitrina.contacts.optOutContact({
        workspaceId: h.workspace.id,
        contactId: "nope",
        source: "console",
        sourceRef: "u",
      }),
    ).rejects.toMatchObject({ code: "not_found" });
  });
});
