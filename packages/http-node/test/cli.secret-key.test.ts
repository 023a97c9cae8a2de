import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_URL, seedPgliteDataDir, uniqueSchema } from "../../adapter-postgres/test/support.js";
import { importOptional, secretKeyFromEnv } from "../src/config/storage-from-env.js";
import { runCli } from "./support/cli-main.js";

// Item 7 of issue 13: with DATABASE_URL and no key, the CLI sealed connector secrets with a key it
// generated into ./.vitrina/secret.key, which the server never had.
describe.skipIf(!DATABASE_URL)("vitrina CLI on PostgreSQL without VITRINA_SECRET_KEY", () => {
  let cwd: string;
  const schema = uniqueSchema();
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), "vitrina-cli-key-"));
  });
  afterAll(async () => {
    const pool = new pg.Pool({ connectionString: DATABASE_URL });
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
    await rm(cwd, { recursive: true, force: true });
  });
  const env = (extra: Record<string, string> = {}) => ({
    DATABASE_URL: DATABASE_URL!,
    VITRINA_DB_SCHEMA: schema,
    VITRINA_SECRET_KEY: "",
    ...extra,
  });

  it("refuses to seal a connector secret, says how to set the key, writes no key file and no connector", async () => {
    const workspace = await runCli(["workspaces", "create", "--name", "Andes", "--owner", "ana", "--json"], {
      cwd,
      env: env(),
    });
    expect(workspace.code).toBe(0);
    const { id } = JSON.parse(workspace.stdout);

    const created = await runCli(
      ["connectors", "create", "--workspace", id, "--name", "HubSpot", "--system-id", "hubspot", "--user", "ana"],
      { cwd, env: env() },
    );
    expect(created.code).toBe(1);
    expect(created.stdout).toBe("");
    expect(created.stderr).toContain("vitrina: invalid_argument: DATABASE_URL is set but VITRINA_SECRET_KEY is not");
    expect(created.stderr).toContain("Set VITRINA_SECRET_KEY to the same key the server uses");
    expect(existsSync(join(cwd, ".vitrina", "secret.key"))).toBe(false);

    const listed = await runCli(["connectors", "list", "--workspace", id, "--user", "ana", "--json"], {
      cwd,
      env: env(),
    });
    expect(JSON.parse(listed.stdout)).toEqual([]);

    const worker = await runCli(["worker"], { cwd, env: env() });
    expect(worker.code).toBe(1);
    expect(worker.stderr).toContain("VITRINA_SECRET_KEY");

    // With the key it works, and still writes no key file.
    const key = Buffer.alloc(32, 7).toString("base64");
    const ok = await runCli(
      [
        "connectors",
        "create",
        "--workspace",
        id,
        "--name",
        "HubSpot",
        "--system-id",
        "hubspot",
        "--user",
        "ana",
        "--json",
      ],
      { cwd, env: env({ VITRINA_SECRET_KEY: key }) },
    );
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).secret).toMatch(/^vtr_cs_/);
    expect(existsSync(join(cwd, ".vitrina", "secret.key"))).toBe(false);
  }, 180_000);
});

describe("vitrina CLI on embedded PGlite", () => {
  it("keeps the generated key in the data directory (the local demo path)", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "vitrina-cli-pglite-"));
    try {
      const env = { DATABASE_URL: "", VITRINA_SECRET_KEY: "" };
      // An empty database to migrate (a copy: no initdb here); the key file is still the CLI's to write.
      await seedPgliteDataDir(join(cwd, ".vitrina", "pglite"));
      const workspace = JSON.parse(
        (await runCli(["workspaces", "create", "--name", "Andes", "--owner", "ana", "--json"], { cwd, env })).stdout,
      );
      const created = await runCli(
        [
          "connectors",
          "create",
          "--workspace",
          workspace.id,
          "--name",
          "HubSpot",
          "--system-id",
          "hubspot",
          "--user",
          "ana",
          "--json",
        ],
        { cwd, env },
      );
      expect(created.code).toBe(0);
      expect(existsSync(join(cwd, ".vitrina", "secret.key"))).toBe(true);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  }, 180_000);
});

describe("storage-from-env guards", () => {
  it("secretKeyFromEnv refuses to generate a key when DATABASE_URL is set, and writes no file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "vitrina-key-"));
    try {
      await expect(secretKeyFromEnv(dir, { DATABASE_URL: "postgres://db/app" })).rejects.toMatchObject({
        code: "invalid_argument",
        message: expect.stringContaining("Set VITRINA_SECRET_KEY to the same key the server uses"),
      });
      expect(existsSync(join(dir, "secret.key"))).toBe(false);
      expect(await secretKeyFromEnv(dir, { DATABASE_URL: "postgres://db/app", VITRINA_SECRET_KEY: "k" })).toBe("k");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("names a missing optional package and how to install it, instead of Node's module-not-found stack", async () => {
    // The error Node raises for `import("@electric-sql/pglite")` when the package isn't installed.
    const notInstalled = () =>
      Promise.reject(
        Object.assign(new Error("Cannot find package '@electric-sql/pglite'"), { code: "ERR_MODULE_NOT_FOUND" }),
      );
    await expect(
      importOptional(notInstalled, "@electric-sql/pglite", "embedded storage without DATABASE_URL"),
    ).rejects.toMatchObject({
      code: "invalid_argument",
      message:
        "embedded storage without DATABASE_URL needs the optional package @electric-sql/pglite: install it (pnpm add @electric-sql/pglite), or set DATABASE_URL, or use --memory",
    });
    const broken = new Error("syntax error in the package");
    await expect(importOptional(() => Promise.reject(broken), "pg", "PostgreSQL")).rejects.toBe(broken);
  });
});
