import { memoryStorage } from "@vitrina/adapter-memory";
import {
  createVitrina,
  silentLogger,
  type CapabilityPrincipal,
  type Storage,
  type VitrinaOptions,
} from "@vitrina/core";
import { logMessagingTransport, seedDemoData } from "@vitrina/core/demo";
import { createManualClock } from "@vitrina/core/testing";

export const ALL_SCOPES = ["catalog:read", "customers:read", "customers:write", "conversations:read", "inventory:read"];

/** A Vitrina over memory storage with a manual clock, one seeded demo workspace and its principal. */
export async function capabilityHarness(options: Partial<VitrinaOptions> & { storage?: Storage } = {}) {
  const clock = createManualClock("2026-03-01T12:00:00.000Z");
  const storage = options.storage ?? memoryStorage();
  const vitrina = createVitrina({
    messaging: logMessagingTransport(silentLogger),
    secretBox: Buffer.alloc(32, 7).toString("base64"),
    clock,
    ...options,
    storage,
  });
  const workspace = await vitrina.workspaces.create({ name: "Demo Inmobiliaria", ownerUserId: "owner" });
  const seeded = await seedDemoData(vitrina, workspace.id, clock.now());
  const principal = (scopes: string[] = ALL_SCOPES): CapabilityPrincipal => ({
    workspaceId: workspace.id,
    scopes,
    actorId: "agent-key-1",
  });
  const invoke = (name: string, input: unknown, idempotencyKey?: string) =>
    vitrina.capabilities.invoke(name, input, {
      principal: principal(),
      ...(idempotencyKey !== undefined && { idempotencyKey }),
    });
  return { vitrina, storage, clock, workspace, seeded, principal, invoke };
}
