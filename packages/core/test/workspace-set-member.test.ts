import { describe, expect, it } from "vitest";
import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, silentLogger } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";

// `vitrina.workspaces.setMember` is the SDK's door to roles (the CLI-less embedder's, and the one
// the examples seed members with). It must obey the same owner rules as the admin API's
// `/v1/members`: only an owner makes, demotes or replaces an owner, and the last owner stays.

async function setup() {
  const storage = memoryStorage();
  const vitrina = createVitrina({
    storage,
    messaging: logMessagingTransport(silentLogger),
    secretBox: Buffer.alloc(32, 5).toString("base64"),
  });
  const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "olga" });
  const set = (actor: string, userId: string, role: "owner" | "admin" | "member") =>
    vitrina.workspaces.setMember({ userId: actor }, { workspaceId: workspace.id, userId, role });
  await set("olga", "adam", "admin");
  await set("olga", "mia", "member");
  const roleOf = async (userId: string) => (await storage.workspaces.getMember(workspace.id, userId))?.role ?? null;
  return { storage, workspace, set, roleOf };
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "fulfilled",
    (error: { code?: string }) => error.code,
  );

describe("workspaces.setMember obeys the owner rules", () => {
  it("an admin can't make themselves (or anyone) owner, nor add a new owner", async () => {
    const { set, roleOf } = await setup();
    expect(await codeOf(set("adam", "adam", "owner"))).toBe("forbidden");
    expect(await codeOf(set("adam", "mia", "owner"))).toBe("forbidden");
    expect(await codeOf(set("adam", "newcomer", "owner"))).toBe("forbidden");
    expect([await roleOf("adam"), await roleOf("mia"), await roleOf("newcomer")]).toEqual(["admin", "member", null]);
  });

  it("an admin can't demote an owner", async () => {
    const { set, roleOf } = await setup();
    expect(await codeOf(set("adam", "olga", "member"))).toBe("forbidden");
    expect(await roleOf("olga")).toBe("owner");
  });

  it("the last owner can't step down (409 naming role); with a second owner they can", async () => {
    const { set, roleOf } = await setup();
    const refused = await set("olga", "olga", "admin").catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "conflict", reasons: [{ field: "role" }] });
    expect(await roleOf("olga")).toBe("owner");
    await set("olga", "adam", "owner");
    await set("olga", "olga", "admin");
    expect([await roleOf("olga"), await roleOf("adam")]).toEqual(["admin", "owner"]);
  });

  it("admins still add and change admins and members; members change nothing", async () => {
    const { set, roleOf } = await setup();
    await set("adam", "nina", "member");
    await set("adam", "nina", "admin");
    expect(await roleOf("nina")).toBe("admin");
    expect(await codeOf(set("mia", "mia", "admin"))).toBe("forbidden");
    expect(await codeOf(set("stranger", "mia", "admin"))).toBe("forbidden");
  });
});
