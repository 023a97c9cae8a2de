import fc from "fast-check";
import { expect } from "vitest";
import { hostileString } from "../support/hostile-strings.js";
import type { WhatsAppHarness } from "./support.js";

/** A string that is sometimes hostile (U+0000, lone surrogates), sometimes 10 KB, sometimes ordinary. */
const anyText = fc.oneof(
  hostileString({ maxLength: 20 }),
  fc.constant("n".repeat(10_240)),
  fc.constantFrom("56955550001", "wamid.HOSTILE", "text", "1764000000", "stop"),
);
/** A value for any JSON field: a hostile string, or the wrong type. */
const anyValue = fc.oneof({ weight: 4, arbitrary: anyText }, fc.constantFrom(null, 7, [], {}, true));

/** A signed batch with hostile values in any of its fields (the phone number id mostly the channel's). */
export function hostileBatch(h: WhatsAppHarness) {
  return fc
    .record({
      from: anyValue,
      id: anyValue,
      timestamp: fc.oneof(anyValue, fc.constant(h.meta.seconds())),
      type: anyValue,
      body: anyValue,
      name: anyValue,
      contextId: anyValue,
      statusId: anyValue,
      status: fc.oneof(anyValue, fc.constantFrom("sent", "delivered", "read", "failed")),
      errorTitle: anyValue,
      prefValue: fc.oneof(anyValue, fc.constantFrom("stop", "resume")),
      phoneNumberId: fc.oneof({ weight: 5, arbitrary: fc.constant(h.phoneNumberId) }, anyValue),
    })
    .map((v) => ({
      object: "whatsapp_business_account",
      entry: [
        {
          id: "1",
          changes: [
            {
              field: "messages",
              value: {
                messaging_product: "whatsapp",
                metadata: { phone_number_id: v.phoneNumberId },
                contacts: [{ profile: { name: v.name }, wa_id: v.from }],
                messages: [
                  {
                    from: v.from,
                    id: v.id,
                    timestamp: v.timestamp,
                    type: v.type,
                    text: { body: v.body },
                    context: { id: v.contextId },
                  },
                  {
                    from: "56955550002",
                    id: h.meta.nextId(),
                    timestamp: h.meta.seconds(),
                    type: "text",
                    text: { body: v.body },
                  },
                ],
                statuses: [
                  {
                    id: v.statusId,
                    status: v.status,
                    timestamp: v.timestamp,
                    recipient_id: v.from,
                    errors: [{ code: 131050, title: v.errorTitle }],
                  },
                ],
                user_preferences: [{ wa_id: v.from, value: v.prefValue, category: v.name, timestamp: v.timestamp }],
              },
            },
          ],
        },
      ],
    }));
}

/**
 * Posts hostile signed batches: each is answered 200 (what could be used was recorded, the rest
 * skipped) or refused cleanly (4xx), never 5xx; and nothing is half-written: every stored message
 * sits in a stored conversation of a stored contact, and every counted message was stored.
 */
export async function assertHostileBatchesHandled(h: WhatsAppHarness, numRuns: number) {
  let recorded = 0;
  await fc.assert(
    fc.asyncProperty(hostileBatch(h), async (batch) => {
      const response = await h.post(batch);
      expect(
        response.status === 200 || (response.status >= 400 && response.status < 500),
        JSON.stringify(response.json),
      ).toBe(true);
      if (response.status === 200 && response.json.recorded) recorded += response.json.messages.recorded;
    }),
    { numRuns },
  );
  expect(h.logs.filter((l) => l.level === "error")).toEqual([]);
  let stored = 0;
  for (const conversation of await h.storage.conversations.listByWorkspace(h.workspace.id, { limit: 10_000 })) {
    expect(await h.storage.contacts.get(h.workspace.id, conversation.contactId)).not.toBeNull();
    stored += (await h.storage.messages.listByConversation(conversation.id)).length;
  }
  expect(stored).toBe(recorded);
  expect(recorded).toBeGreaterThan(0);
}
