// Agent-runtime invoke calls/s on the memory adapter, next to calling the same storage functions
// directly: the ratio is what the runtime adds (scope check, zod input/output validation,
// provenance; for contacts.update also the logical attempt: fingerprint + 3 attempt writes).
import { createVitrina, silentLogger } from "../packages/core/dist/index.js";
import { logMessagingTransport, seedDemoData } from "../packages/core/dist/demo.js";
import { createManualClock } from "../packages/core/dist/testing/index.js";
import { memoryStorage } from "../packages/adapter-memory/dist/index.js";
import { opsPerSecond } from "./lib.mjs";

export const name = "capabilities: runtime invoke vs direct storage calls (memory adapter, one caller)";

async function setup() {
  const storage = memoryStorage();
  const vitrina = createVitrina({
    storage,
    messaging: logMessagingTransport(silentLogger),
    secretBox: Buffer.alloc(32, 1).toString("base64"),
    clock: createManualClock(),
  });
  const workspace = await vitrina.workspaces.create({ name: "Bench", ownerUserId: "owner" });
  const seeded = await seedDemoData(vitrina, workspace.id);
  const principal = { workspaceId: workspace.id, scopes: ["catalog:read", "customers:write"], actorId: "bench" };
  return { storage, vitrina, workspaceId: workspace.id, contactId: seeded.contactIds[0], principal };
}

export async function run() {
  const { storage, vitrina, workspaceId, contactId, principal } = await setup();

  const searchDirect = await opsPerSecond(() =>
    storage.catalogItems.search(workspaceId, { search: "mirador", limit: 20 }),
  );
  const searchInvoke = await opsPerSecond(() =>
    vitrina.capabilities.invoke("catalog.search", { search: "mirador" }, { principal }),
  );

  let n = 0;
  const updateDirect = await opsPerSecond(() =>
    storage.transaction(async (tx) => {
      const contact = await tx.contacts.get(workspaceId, contactId);
      await tx.contacts.update({ ...contact, name: `Direct ${n++}`, updatedAt: new Date().toISOString() });
    }),
  );
  const updateInvoke = await opsPerSecond(() =>
    vitrina.capabilities.invoke(
      "contacts.update",
      { contact_id: contactId, name: `Invoke ${n}` },
      { principal, idempotencyKey: `k-${n++}` },
    ),
  );
  const replay = { contact_id: contactId, name: "Replayed" };
  await vitrina.capabilities.invoke("contacts.update", replay, { principal, idempotencyKey: "replay" });
  const updateReplay = await opsPerSecond(() =>
    vitrina.capabilities.invoke("contacts.update", replay, { principal, idempotencyKey: "replay" }),
  );

  const ratio = (direct, invoked) => `${(direct / invoked).toFixed(2)}x`;
  return [
    { case: "catalog.search direct storage", value: searchDirect, unit: "calls/s" },
    { case: "catalog.search invoke", value: searchInvoke, unit: "calls/s" },
    { case: "catalog.search runtime overhead", value: ratio(searchDirect, searchInvoke), note: "direct / invoke" },
    { case: "contacts.update direct storage", value: updateDirect, unit: "calls/s" },
    { case: "contacts.update invoke (new key)", value: updateInvoke, unit: "calls/s" },
    {
      case: "contacts.update runtime overhead",
      value: ratio(updateDirect, updateInvoke),
      note: "direct / invoke, logical attempt included",
    },
    { case: "contacts.update invoke (replayed key)", value: updateReplay, unit: "calls/s" },
  ];
}
