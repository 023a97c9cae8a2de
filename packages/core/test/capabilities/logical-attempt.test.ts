import { describe, expect, it } from "vitest";
import { capabilityHarness } from "./support/harness.js";
import { crashableStorage } from "./support/crashable-storage.js";

async function setup() {
  const crashable = crashableStorage();
  const harness = await capabilityHarness({ storage: crashable.storage, capabilities: { attemptLeaseMs: 10_000 } });
  const contactId = harness.seeded.contactIds[0]!;
  const contact = () => crashable.inner.contacts.get(harness.workspace.id, contactId);
  const attempt = (key: string) =>
    crashable.inner.idempotencyAttempts.get(harness.workspace.id, "contacts.update", key);
  return { ...harness, ...crashable, contactId, contact, attempt };
}

describe("contacts.update as a logical attempt", () => {
  it("moves pending → executing → confirmed and records the output", async () => {
    const { invoke, contactId, contact, attempt, written } = await setup();
    const result = await invoke(
      "contacts.update",
      { contact_id: contactId, name: "María J. Ñuñez", tags: ["vip", "vip", "compra"] },
      "k1",
    );
    expect(result.output).toEqual({ ok: true });
    expect(result.provenance.freshness).toBe("live");
    expect(written).toEqual(["pending", "executing", "confirmed"]);
    expect(await attempt("k1")).toMatchObject({
      state: "confirmed",
      version: 3,
      leaseExpiresAt: null,
      output: { ok: true },
      observedAt: "2026-03-01T12:00:00.000Z",
    });
    expect(await contact()).toMatchObject({
      name: "María J. Ñuñez",
      tags: ["vip", "compra"],
      phoneE164: "+56911112222",
    });
  });

  it("a retry with the same key returns the recorded outcome and applies nothing", async () => {
    const { invoke, contactId, contact, inner, clock, written } = await setup();
    await invoke("contacts.update", { contact_id: contactId, name: "Primera" }, "k1");
    await inner.contacts.update({ ...(await contact())!, name: "Cambiado por otro" });
    clock.advance(60_000);
    const retry = await invoke("contacts.update", { name: "Primera", contact_id: contactId }, "k1");
    expect(retry).toEqual({
      output: { ok: true },
      provenance: {
        source: "service_native",
        observedAt: "2026-03-01T12:00:00.000Z",
        freshness: "recorded",
        authoritative: false,
        fallbackUsed: false,
      },
    });
    expect((await contact())?.name).toBe("Cambiado por otro");
    expect(written).toEqual(["pending", "executing", "confirmed"]);
  });

  it("refuses the same key with a different input as idempotency_key_reused", async () => {
    const { invoke, contactId } = await setup();
    await invoke("contacts.update", { contact_id: contactId, name: "Uno" }, "k1");
    await expect(invoke("contacts.update", { contact_id: contactId, name: "Dos" }, "k1")).rejects.toMatchObject({
      code: "idempotency_key_reused",
      message: expect.stringContaining(
        'idempotency key "k1" was already used for contacts.update with a different input',
      ),
    });
  });

  it("moves executing → failed on a business failure, returned as { ok: false, error } and replayed as such", async () => {
    const { invoke, attempt, seeded, contactId } = await setup();
    const missing = await invoke("contacts.update", { contact_id: "nobody", name: "X" }, "k-missing");
    expect(missing.output).toEqual({ ok: false, error: "contact nobody does not exist" });
    expect(await attempt("k-missing")).toMatchObject({ state: "failed", output: missing.output });
    expect(
      (await invoke("contacts.update", { contact_id: "nobody", name: "X" }, "k-missing")).provenance.freshness,
    ).toBe("recorded");
    const taken = await invoke("contacts.update", { contact_id: contactId, phone: "+56922223333" }, "k-phone");
    expect(taken.output).toEqual({ ok: false, error: "another contact already has this phone" });
    expect(seeded.contactIds).toHaveLength(3);
  });

  it("crash after applying, before recording: executing until the lease ends, then unknown → reconciled as confirmed without applying twice", async () => {
    const { invoke, contactId, contact, attempt, crash, clock, written } = await setup();
    crash.onAttemptWrite = "confirmed";
    await expect(invoke("contacts.update", { contact_id: contactId, email: "nueva@example.cl" }, "k1")).rejects.toThrow(
      "process died",
    );
    crash.onAttemptWrite = false;
    expect(await attempt("k1")).toMatchObject({ state: "executing", leaseExpiresAt: "2026-03-01T12:00:10.000Z" });
    const appliedAt = (await contact())?.updatedAt;

    clock.advance(5_000);
    await expect(
      invoke("contacts.update", { contact_id: contactId, email: "nueva@example.cl" }, "k1"),
    ).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("is still executing"),
    });
    clock.advance(5_001);
    const retry = await invoke("contacts.update", { contact_id: contactId, email: "nueva@example.cl" }, "k1");
    expect(retry.output).toEqual({ ok: true });
    expect(written).toEqual(["pending", "executing", "unknown", "executing", "confirmed"]);
    expect((await contact())?.updatedAt).toBe(appliedAt);
  });

  it("crash while executing, before applying: executing → unknown → executing → confirmed, applied once", async () => {
    const { invoke, contactId, contact, attempt, crash, clock, written } = await setup();
    crash.onApply = true;
    crash.onAttemptWrite = "unknown"; // the process is gone: it cannot even say the outcome is unknown
    await expect(invoke("contacts.update", { contact_id: contactId, name: "Tras la caída" }, "k1")).rejects.toThrow(
      "process died",
    );
    Object.assign(crash, { onApply: false, onAttemptWrite: false });
    expect(await attempt("k1")).toMatchObject({ state: "executing" });
    expect((await contact())?.name).toBe("María José Ñuñez");
    clock.advance(10_001);
    expect((await invoke("contacts.update", { contact_id: contactId, name: "Tras la caída" }, "k1")).output).toEqual({
      ok: true,
    });
    expect((await contact())?.name).toBe("Tras la caída");
    expect(written).toEqual(["pending", "executing", "unknown", "executing", "confirmed"]);
  });

  it("an outage while applying marks the attempt unknown at once; the retry reconciles and re-applies", async () => {
    const { invoke, contactId, contact, attempt, crash, written } = await setup();
    crash.onApply = true;
    await expect(invoke("contacts.update", { contact_id: contactId, tags: [] }, "k1")).rejects.toThrow("process died");
    crash.onApply = false;
    expect(await attempt("k1")).toMatchObject({ state: "unknown", leaseExpiresAt: null });
    expect((await invoke("contacts.update", { contact_id: contactId, tags: [] }, "k1")).output).toEqual({ ok: true });
    expect((await contact())?.tags).toEqual([]);
    expect(written).toEqual(["pending", "executing", "unknown", "executing", "confirmed"]);
  });

  it("crash between recording and claiming: a pending attempt is claimed by the retry", async () => {
    const { invoke, contactId, attempt, crash, written } = await setup();
    crash.onAttemptWrite = "executing";
    await expect(invoke("contacts.update", { contact_id: contactId, name: "Pendiente" }, "k1")).rejects.toThrow(
      "process died",
    );
    crash.onAttemptWrite = false;
    expect(await attempt("k1")).toMatchObject({ state: "pending", version: 1 });
    expect((await invoke("contacts.update", { contact_id: contactId, name: "Pendiente" }, "k1")).output).toEqual({
      ok: true,
    });
    expect(written).toEqual(["pending", "executing", "confirmed"]);
  });

  it("concurrent calls with one key apply once: the others see it executing or get the recorded outcome", async () => {
    const { invoke, contactId } = await setup();
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => invoke("contacts.update", { contact_id: contactId, name: "Carrera" }, "k-race")),
    );
    const live = results.filter((r) => r.status === "fulfilled" && r.value.provenance.freshness === "live");
    expect(live).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "conflict" });
  });
});
