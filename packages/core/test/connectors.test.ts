import { describe, expect, it } from "vitest";
import { memoryStorage } from "@vitrina/adapter-memory";
import { createAesGcmSecretBox, createVitrina, silentLogger } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";

const key = Buffer.alloc(32, 3).toString("base64");

async function setup() {
  const storage = memoryStorage();
  const vitrina = createVitrina({ storage, messaging: logMessagingTransport(silentLogger), secretBox: key });
  const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner" });
  await vitrina.workspaces.setMember(
    { userId: "owner" },
    { workspaceId: workspace.id, userId: "admin", role: "admin" },
  );
  await vitrina.workspaces.setMember(
    { userId: "owner" },
    { workspaceId: workspace.id, userId: "seller", role: "member" },
  );
  return { storage, vitrina, workspace };
}

describe("connectors", () => {
  it("creates a connector with a UUID and a strong secret shown once, sealed at rest", async () => {
    const { storage, vitrina, workspace } = await setup();
    const { connector, secret } = await vitrina.connectors.create(
      { userId: "admin" },
      { workspaceId: workspace.id, name: "HubSpot", systemId: "hubspot-main" },
    );
    expect(connector.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(secret).toMatch(/^vtr_cs_[A-Za-z0-9_-]{43}$/);
    expect(connector).not.toHaveProperty("sealedSecret");
    const stored = await storage.connectors.get(connector.id);
    expect(stored?.sealedSecret).not.toContain(secret);
    expect(await createAesGcmSecretBox(key).open(stored!.sealedSecret)).toBe(secret);
    const listed = await vitrina.connectors.list({ userId: "owner" }, { workspaceId: workspace.id });
    expect(listed).toEqual([connector]);
    expect(JSON.stringify(listed)).not.toContain(secret);
  });

  it("rotates to a new secret and reports the rotation", async () => {
    const { vitrina, workspace } = await setup();
    const created = await vitrina.connectors.create(
      { userId: "owner" },
      { workspaceId: workspace.id, name: "Form", systemId: "web-form" },
    );
    const rotated = await vitrina.connectors.rotate({ userId: "admin" }, { connectorId: created.connector.id });
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.connector.secretVersion).toBe(2);
    expect(rotated.connector.rotatedAt).toEqual(expect.any(String));
  });

  it("refuses members who are not owner or admin, and outsiders, with a clear error", async () => {
    const { vitrina, workspace } = await setup();
    await expect(
      vitrina.connectors.create({ userId: "seller" }, { workspaceId: workspace.id, name: "X", systemId: "x" }),
    ).rejects.toMatchObject({
      code: "forbidden",
      message: "only an owner or admin of the workspace may create connectors; user seller is a member",
    });
    await expect(vitrina.connectors.list({ userId: "stranger" }, { workspaceId: workspace.id })).rejects.toMatchObject({
      code: "forbidden",
    });
    const { connector } = await vitrina.connectors.create(
      { userId: "owner" },
      { workspaceId: workspace.id, name: "X", systemId: "x" },
    );
    await expect(vitrina.connectors.rotate({ userId: "seller" }, { connectorId: connector.id })).rejects.toMatchObject({
      code: "forbidden",
    });
  });

  it("validates the visible name and the system identifier", async () => {
    const { vitrina, workspace } = await setup();
    await expect(
      vitrina.connectors.create({ userId: "owner" }, { workspaceId: workspace.id, name: " ", systemId: "has space" }),
    ).rejects.toMatchObject({
      code: "invalid_payload",
      reasons: [
        { field: "name", reason: "must be 1 to 120 characters" },
        { field: "systemId", reason: expect.stringMatching(/no spaces/) },
      ],
    });
    await vitrina.connectors.create({ userId: "owner" }, { workspaceId: workspace.id, name: "A", systemId: "dup" });
    await expect(
      vitrina.connectors.create({ userId: "owner" }, { workspaceId: workspace.id, name: "B", systemId: "dup" }),
    ).rejects.toMatchObject({ code: "conflict" });
  });

  it("refuses a secret box key that is not 32 bytes", () => {
    expect(() => createAesGcmSecretBox(Buffer.alloc(16).toString("base64"))).toThrow(/32 bytes/);
  });
});
