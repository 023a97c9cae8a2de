import { mkdtemp, open, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
// @ts-expect-error plain ESM without types, run from source like main.mjs does
import { writeDemoCredentials } from "../src/demo.mjs";

// The credentials file holds the demo's API key and connector secret. Whoever could read it before
// the demo rewrote it must not get the new secrets: neither in the moment before a chmod, nor through
// a descriptor opened while the old file was world-readable (chmod doesn't revoke an open one).
const fresh = { apiKey: "vtr_sk_new_secret", connectorSecret: "vtr_cs_new_secret" };
let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "vitrina-demo-credentials-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("writeDemoCredentials", () => {
  it("creates the file (and its directory) readable only by its owner", async () => {
    const path = join(dir, ".vitrina", "demo-credentials.json");
    await writeDemoCredentials(path, fresh);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual(fresh);
  });

  it("replaces a world-readable file without ever putting the new secrets in it", async () => {
    const path = join(dir, "demo-credentials.json");
    await writeFile(path, JSON.stringify({ apiKey: "vtr_sk_old" }), { mode: 0o644 });
    const reader = await open(path, "r"); // another user, while the old file was readable
    try {
      await writeDemoCredentials(path, fresh);
      const seenByReader = (await reader.readFile({ encoding: "utf8" })) as string;
      expect(seenByReader).not.toContain("new_secret");
    } finally {
      await reader.close();
    }
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual(fresh);
    expect(await readdir(dir)).toEqual(["demo-credentials.json"]); // no temporary file left behind
  });
});
