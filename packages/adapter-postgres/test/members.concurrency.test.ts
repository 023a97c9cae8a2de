import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Storage } from "@vitrina/core";
import { backends, openTestStorage, testVitrina } from "./support.js";

// "Never leave a workspace without an owner" reads the owner count, then writes: two owners
// demoting (or removing) each other at once would both see two owners and both succeed. The
// services lock the workspace row first; only real PostgreSQL shows the race (PGlite runs one
// transaction at a time, so there it checks the sequential rule).
const RACES = 100;

describe.each(backends)("the last owner under concurrency on %s", (backend) => {
  let storage: Storage;
  let vitrina: ReturnType<typeof testVitrina>;
  beforeAll(async () => {
    storage = (await openTestStorage(backend)).storage;
    vitrina = testVitrina(storage);
  });
  afterAll(async () => {
    await storage.close();
  });

  const owner = (workspaceId: string, userId: string) => ({
    workspaceId,
    role: "owner" as const,
    userId,
    principal: { kind: "console" as const, workspaceId, keyId: `session-${userId}`, subject: userId, scopes: [] },
  });

  async function twoOwners(i: number) {
    const workspace = await vitrina.workspaces.create({ name: `race ${i}`, ownerUserId: "ana" });
    await vitrina.admin.members.setRole(owner(workspace.id, "ana"), "ana", "owner");
    await storage.members.insert({
      workspaceId: workspace.id,
      userId: "beto",
      role: "owner",
      email: null,
      addedAt: new Date().toISOString(),
    });
    return workspace.id;
  }

  for (const kind of [
    "demotions",
    "removals",
    "a demotion and a removal",
    "demotions through workspaces.setMember",
  ] as const) {
    it(`keeps an owner when two owners race ${kind} of each other (${RACES} races)`, async () => {
      let violations = 0;
      let bothWon = 0;
      for (let i = 0; i < RACES; i++) {
        const ws = await twoOwners(i);
        const members = vitrina.admin.members;
        const demoteBeto = () => members.setRole(owner(ws, "ana"), "beto", "admin");
        const removeAna = () => members.remove(owner(ws, "beto"), "ana");
        const demoteAna = () => members.setRole(owner(ws, "beto"), "ana", "member");
        const removeBeto = () => members.remove(owner(ws, "ana"), "beto");
        // The SDK's own door to roles takes the same lock and rules as the admin services.
        const setRole = (actor: string, userId: string) =>
          vitrina.workspaces.setMember({ userId: actor }, { workspaceId: ws, userId, role: "admin" });
        const pair =
          kind === "demotions"
            ? [demoteBeto(), demoteAna()]
            : kind === "demotions through workspaces.setMember"
              ? [setRole("ana", "beto"), setRole("beto", "ana")]
              : kind === "removals"
                ? [removeBeto(), removeAna()]
                : [demoteBeto(), removeAna()];
        const results = await Promise.allSettled(pair);
        for (const r of results)
          if (r.status === "rejected") expect((r.reason as { code: string }).code).toMatch(/^(conflict|forbidden)$/);
        if (results.every((r) => r.status === "fulfilled")) bothWon++;
        if ((await storage.members.countOwners(ws)) === 0) violations++;
      }
      console.info(
        `[${backend}] last-owner races (${kind}): ${RACES}, both succeeded: ${bothWon}, workspaces left without an owner: ${violations}`,
      );
      expect({ violations, bothWon }).toEqual({ violations: 0, bothWon: 0 });
    });
  }
});
