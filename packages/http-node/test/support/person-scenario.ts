import type { Storage } from "@vitrina/core";
import { sampleLead, type LeadHarness } from "./lead-harness.js";

let people = 0;

/**
 * Sends a lead, and again if the request never got an answer (under load a kept-alive socket can be
 * closed by the server as the client reuses it: `fetch failed`). A resend is what a CRM does, and
 * is safe: the lead is idempotent on its source id.
 */
export function sendOnce(h: LeadHarness, lead: unknown) {
  return h.send(lead).catch(() => h.send(lead));
}

/**
 * One person as Vitrina comes to hold them: two leads (payload, metadata, qualification, a landing
 * page with their email), their welcome (its thread message names them), an opt-out asked for with
 * a note, an inbound message with a caption, an event naming them with a sent delivery whose
 * receiver echoed their name and a pending one, and an agent run that set their name. `needles` are the strings no table may hold after
 * their erasure.
 */
export async function seedPerson(h: LeadHarness, options: { optOut?: boolean } = {}) {
  people++;
  const tag = `${Date.now().toString(36)}${people}`;
  const phone = `+5697${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  const name = `Zoraida Quispehuaman${tag}`;
  const email = `zoraida.${tag}@correo.example`;
  const word = `palabrasecreta${tag}`;
  const lead = (n: number) =>
    sampleLead({
      source_lead_id: `crm-${tag}-${n}`,
      contact: { phone_e164: phone, name, email },
      context: { source: "landing", campaign_id: "spring", landing_page: `https://example.cl/?email=${email}` },
      metadata: { note: `${word} desde el formulario` },
    });
  const first = await sendOnce(h, lead(1));
  const second = await sendOnce(h, lead(2));
  const contactId: string = first.json.contact_id;
  const { workspace, storage } = h;
  if (options.optOut !== false)
    await h.vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164: phone, note: `no más, ${word}` });
  await addConversationAndEvent(storage, workspace.id, contactId, { name, word, tag });
  // An agent corrected their name: its run's trace (and the run's event) hold the name it was given.
  const run = h.vitrina.capabilities.startRun({
    principal: { workspaceId: workspace.id, scopes: ["customers:write"] },
    agentId: "sales-bot",
  });
  const renamed = await run.invoke(
    "contacts.update",
    { contact_id: contactId, name },
    { idempotencyKey: `rename-${tag}` },
  );
  if ((renamed.output as { ok?: boolean }).ok !== true)
    throw new Error(`contacts.update failed: ${JSON.stringify(renamed.output)}`);
  await run.complete();
  return {
    tag,
    phone,
    name,
    email,
    word,
    contactId,
    leads: [first.json, second.json],
    needles: [phone, email, name, word],
  };
}

async function addConversationAndEvent(
  storage: Storage,
  workspaceId: string,
  contactId: string,
  p: { name: string; word: string; tag: string },
) {
  const now = new Date().toISOString();
  const conversation =
    (await storage.conversations.findActive(workspaceId, contactId, "whatsapp")) ??
    (await (async () => {
      const created = {
        id: crypto.randomUUID(),
        workspaceId,
        contactId,
        channel: "whatsapp",
        status: "open" as const,
        escalatedAt: null,
        createdAt: now,
        updatedAt: now,
      };
      await storage.conversations.insert(created);
      return created;
    })());
  await storage.messages.insert({
    id: crypto.randomUUID(),
    workspaceId,
    conversationId: conversation.id,
    sender: "contact",
    content: `[image] hola soy ${p.name}, ${p.word}`,
    providerMessageId: `wamid.${p.tag}`,
    kind: "image",
    details: { caption: p.word, media_id: "m1" },
    createdAt: now,
  });
  const subscription = (n: number) => ({
    id: crypto.randomUUID(),
    workspaceId,
    url: `https://receiver-${n}.example/hooks`,
    events: ["conversation.started"],
    sealedSecret: "v1.sealed.secret",
    signatureScheme: "vitrina" as const,
    previousSealedSecret: null,
    previousSecretExpiresAt: null,
    enabled: true,
    disabledReason: null,
    createdAt: now,
    updatedAt: now,
  });
  for (const n of [1, 2]) await storage.webhookSubscriptions.insert(subscription(n));
  const [delivered] = await storage.events.appendAndFanOut(
    {
      id: `evt_${crypto.randomUUID()}`,
      workspaceId,
      type: "conversation.started",
      created: now,
      data: { conversation_id: conversation.id, contact_id: contactId, channel: "whatsapp", started_by: "contact" },
    },
    { retryUntil: new Date(Date.now() + 86_400_000).toISOString() },
  );
  await storage.webhookAttempts.insert({
    id: crypto.randomUUID(),
    deliveryId: delivered!.id,
    number: 1,
    attemptedAt: now,
    statusCode: 500,
    durationMs: 3,
    error: `HTTP 500: ${p.name}`,
    responseBodyPrefix: `{"error":"unknown contact ${p.name}"}`,
  });
}

/** Where each needle is found: `table.column` (or `table` for memory rows) and the needle. */
export type Finding = { where: string; needle: string };
