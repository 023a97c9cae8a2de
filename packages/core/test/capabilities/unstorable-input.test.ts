import { describe, expect, it } from "vitest";
import { capabilityHarness } from "./support/harness.js";

// Text no adapter can store as sent: U+0000, and half of a surrogate pair (an emoji a model cut in two).
const UNSTORABLE = ["Ana\u0000", "Casa \ud83c"];

describe("input text no adapter can store is refused as invalid input, before any attempt", () => {
  it.each(UNSTORABLE)("contacts.update %j: 422 naming the field, no attempt, the key still usable", async (name) => {
    const { invoke, storage, workspace, seeded } = await capabilityHarness();
    const contactId = seeded.contactIds[0]!;
    await expect(invoke("contacts.update", { contact_id: contactId, name }, "rename-1")).rejects.toMatchObject({
      code: "invalid_payload",
      reasons: [{ field: "name", reason: "must not contain U+0000 or a lone UTF-16 surrogate" }],
    });
    expect(await storage.idempotencyAttempts.get(workspace.id, "contacts.update", "rename-1")).toBeNull();
    // The caller fixes the text and retries under the same key, as for any invalid input.
    const fixed = await invoke("contacts.update", { contact_id: contactId, name: "Ana" }, "rename-1");
    expect(fixed.output).toEqual({ ok: true });
    expect((await storage.contacts.get(workspace.id, contactId))?.name).toBe("Ana");
  });

  it("names the path inside arrays, for queries too", async () => {
    const { invoke, seeded } = await capabilityHarness();
    await expect(
      invoke("contacts.update", { contact_id: seeded.contactIds[0]!, tags: ["vip", "x\u0000"] }, "tags-1"),
    ).rejects.toMatchObject({ code: "invalid_payload", reasons: [{ field: "tags.1" }] });
    await expect(invoke("contacts.search", { query: "Mar\ud800" })).rejects.toMatchObject({
      code: "invalid_payload",
      reasons: [{ field: "query" }],
    });
  });

  it("refuses an idempotency key no adapter can store, naming it", async () => {
    const { invoke, seeded } = await capabilityHarness();
    await expect(
      invoke("contacts.update", { contact_id: seeded.contactIds[0]!, name: "Ana" }, "key-\ud800"),
    ).rejects.toMatchObject({ code: "invalid_argument", reasons: [{ field: "idempotencyKey" }] });
  });
});
