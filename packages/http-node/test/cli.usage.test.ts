import { existsSync } from "node:fs";
import { readFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVitrina, SCOPES, silentLogger } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { seedPgliteDataDir } from "../../adapter-postgres/test/support.js";
import { storageFromEnv } from "../src/config/storage-from-env.js";
import { runCli, type CliRun } from "./support/cli-main.js";

// Item 8 of issue 13: the CLI as a person at the console meets it, each step a separate run of the
// CLI (its `main`, in process) on one embedded PGlite data directory.
let cwd: string;
const env = () => ({ DATABASE_URL: "", VITRINA_SECRET_KEY: "", VITRINA_DATA_DIR: join(cwd, ".vitrina") });
const cli = (...args: string[]) => runCli(args, { cwd, env: env() });
/** `vitrina deliveries list` with its required flags, then `flags`. */
const deliveriesList = (...flags: string[]) =>
  cli("deliveries", "list", "--workspace", "w", "--subscription", "s", "--user", "ana", ...flags);
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "vitrina-cli-usage-"));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe("vitrina CLI: help, version and usage errors", () => {
  it("prints its version, the command list, and each command's own help", async () => {
    const { version } = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8"));
    // Runs that open no storage: they run side by side.
    const [printed, help, connectors] = await Promise.all([
      cli("--version"),
      cli("--help"),
      cli("connectors", "--help"),
    ]);
    expect(printed).toMatchObject({ code: 0, stdout: `${version}\n` });
    for (const name of ["migrate", "workspaces", "connectors", "api-keys", "webhooks", "deliveries", "worker"])
      expect(help.stdout).toContain(`  ${name}`);
    expect(connectors.code).toBe(0);
    expect(connectors.stdout).toContain("vitrina connectors rotate <connectorId> --user <userId>");
    expect(connectors.stdout).toContain("--public-url");
  }, 120_000);

  it("refuses bad flags with a usage error naming the flag (exit 2), before opening any storage", async () => {
    // Runs that must open no storage: they run side by side (none takes the data dir's lock).
    const connectorFlags = ["--workspace", "w1", "--name", "HubSpot", "--system-id", "hubspot", "--user", "ana"];
    const [limit, huge, vertical, currency, unknown, missing, notUrl, ftp, query] = await Promise.all([
      deliveriesList("--limit", "abc"),
      // A limit past a page (and past what PostgreSQL's LIMIT can hold) is a usage error too.
      deliveriesList("--limit", "100000000000000000000"),
      cli("workspaces", "create", "--name", "Andes", "--owner", "ana", "--vertical", "farm"),
      cli("workspaces", "create", "--name", "Andes", "--owner", "ana", "--currency", "clp"),
      cli("connectors", "list", "--wat"),
      cli("connectors", "rotate", "--user", "ana"),
      // A typo in --public-url is caught before a secret is created or rotated next to a useless URL.
      cli("connectors", "create", ...connectorFlags, "--public-url", "notaurl"),
      cli("connectors", "rotate", "c1", "--user", "ana", "--public-url", "ftp://crm.example.com"),
      cli("connectors", "create", ...connectorFlags, "--public-url", "https://crm.example.com/?x=1"),
    ]);
    expect(limit.code).toBe(2);
    expect(limit.stderr).toContain('vitrina: invalid_argument: --limit must be a positive whole number, got "abc"');
    expect(limit.stderr).toContain("vitrina deliveries list");
    expect(huge).toMatchObject({ code: 2, stdout: "" });
    expect(huge.stderr).toContain("vitrina: invalid_argument: --limit must be at most 100, got 100000000000000000000");
    expect(vertical).toMatchObject({ code: 2, stdout: "" });
    expect(vertical.stderr).toContain('--vertical must be one of real_estate, generic, got "farm"');
    expect(currency.code).toBe(2);
    expect(currency.stderr).toContain("--currency must be a three-letter ISO 4217 code");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--wat'");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("missing <connectorId>");
    for (const [run, given] of [
      [notUrl, "notaurl"],
      [ftp, "ftp://crm.example.com"],
      [query, "https://crm.example.com/?x=1"],
    ] as const) {
      expect(run).toMatchObject({ code: 2, stdout: "" });
      expect(run.stderr).toContain(
        `vitrina: invalid_argument: --public-url must be an absolute http(s) URL without query or fragment, such as https://shop.example.com/vitrina (got "${given}")`,
      );
    }
    // The command line is checked before storage opens: no embedded database was created for these.
    expect(existsSync(env().VITRINA_DATA_DIR)).toBe(false);
  }, 120_000);

  it("refuses a word past the command's arguments (exit 2) rather than ignoring it", async () => {
    const [list, rotate, cleanup, migrate] = await Promise.all([
      // `--user` forgotten before the second word: it would run with "ana" ignored.
      cli("workspaces", "list", "--user", "bob", "ana"),
      cli("connectors", "rotate", "c1", "c2", "--user", "ana"),
      cli("cleanup", "now"),
      cli("migrate", "down"),
    ]);
    expectUsageError(list, 'vitrina: invalid_argument: unexpected argument "ana"');
    expect(list.stderr).toContain("vitrina workspaces list");
    expectUsageError(rotate, 'unexpected argument "c2"');
    expectUsageError(cleanup, 'unexpected argument "now"');
    expectUsageError(migrate, 'unexpected argument "down"');
    expect(existsSync(env().VITRINA_DATA_DIR)).toBe(false);
  }, 120_000);

  it("names a DATABASE_URL that isn't a URL, without printing the password in it", async () => {
    // An unencoded "/" in the password: the host ends there, and "hunter2" reads as the port.
    const run = await runCli(["workspaces", "list", "--user", "ana"], {
      cwd,
      env: { ...env(), DATABASE_URL: "postgres://bob:hunter2/x@127.0.0.1:5432/app" },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("vitrina: invalid_argument: DATABASE_URL is not a valid URL: expected postgres://");
    expect(run.stderr).not.toContain("hunter2");
  }, 120_000);

  it("without a command, refuses an unknown flag or `help <unknown command>` rather than printing the list", async () => {
    const [none, help, typo, unknownHelp] = await Promise.all([
      cli(),
      cli("help"),
      cli("--josn"),
      cli("help", "deliverys"),
    ]);
    expect(none).toMatchObject({ code: 0, stderr: "" });
    expect(none.stdout).toContain("usage: vitrina <command> [options]");
    expect(help).toMatchObject({ code: 0, stdout: none.stdout });
    expectUsageError(typo, "vitrina: invalid_argument: Unknown option '--josn'");
    expectUsageError(unknownHelp, 'vitrina: invalid_argument: unknown command "deliverys"; commands: migrate,');
  }, 120_000);

  it("refuses a flag given twice, in either form, rather than keeping the last one", async () => {
    const [user, mixed, json] = await Promise.all([
      cli("workspaces", "list", "--user", "ana", "--user", "bob"),
      deliveriesList("--limit=5", "--limit", "50"),
      cli("workspaces", "list", "--user", "ana", "--json", "--json"),
    ]);
    expectUsageError(user, "vitrina: invalid_argument: --user is given more than once");
    expect(user.stderr).toContain("vitrina workspaces list");
    expectUsageError(mixed, "--limit is given more than once");
    expectUsageError(json, "--json is given more than once");
    expect(existsSync(env().VITRINA_DATA_DIR)).toBe(false);
  }, 120_000);
});

/** Exit 2, nothing on stdout, `message` on stderr. */
function expectUsageError(run: CliRun, message: string): void {
  expect(run, run.stderr).toMatchObject({ code: 2, stdout: "" });
  expect(run.stderr).toContain(message);
}

describe("vitrina CLI: console commands with tables, reasons and URLs", () => {
  let workspaceId: string;
  beforeAll(async () => {
    // Starts from an empty PGlite database (initdb done once per run) that the CLI migrates.
    await seedPgliteDataDir(join(env().VITRINA_DATA_DIR, "pglite"));
    const created = await cli("workspaces", "create", "--name", "Andes", "--owner", "ana", "--json");
    workspaceId = JSON.parse(created.stdout).id;
  }, 60_000);

  it("lists every field at fault and the valid scopes", async () => {
    const connector = await cli(
      "connectors",
      "create",
      "--workspace",
      workspaceId,
      "--name",
      "  ",
      "--system-id",
      "has space",
      "--user",
      "ana",
    );
    expect(connector.code).toBe(1);
    expect(connector.stderr).toContain(
      "vitrina: invalid_payload: connector is invalid\n  name: must be 1 to 120 characters\n  systemId: must be 1 to 64 letters",
    );
    const key = await cli(
      "api-keys",
      "issue",
      "--workspace",
      workspaceId,
      "--user",
      "ana",
      "--name",
      "crm",
      "--scopes",
      "catalog:read,bogus",
    );
    expect(key.code).toBe(1);
    expect(key.stderr).toContain(`  scopes.1: unknown scope "bogus"; known: ${SCOPES.join(", ")}`);
  }, 120_000);

  it("prints the connector's lead-intake URL, or a marked placeholder", async () => {
    const placeholder = await cli(
      "connectors",
      "create",
      "--workspace",
      workspaceId,
      "--name",
      "HubSpot",
      "--system-id",
      "hubspot",
      "--user",
      "ana",
    );
    expect(placeholder.code).toBe(0);
    expect(placeholder.stdout).toMatch(/^secret +vtr_cs_/m);
    expect(placeholder.stdout).toContain(
      "lead_intake_url  <your public URL>/functions/v1/lead-intake (pass --public-url or set publicUrl in vitrina.config.mjs)",
    );
    const json = await cli(
      "connectors",
      "create",
      "--workspace",
      workspaceId,
      "--name",
      "Pipedrive",
      "--system-id",
      "pipedrive",
      "--user",
      "ana",
      "--public-url",
      "https://crm.example.com/vitrina/",
      "--json",
    );
    expect(JSON.parse(json.stdout)).toMatchObject({
      lead_intake_url: "https://crm.example.com/vitrina/functions/v1/lead-intake",
      secret: expect.stringMatching(/^vtr_cs_/),
    });
  }, 120_000);

  it("lists workspaces, webhook subscriptions and deliveries as aligned tables, or JSON", async () => {
    const configured = await storageFromEnv({ env: env() });
    const vitrina = createVitrina({
      storage: configured.storage,
      messaging: logMessagingTransport(silentLogger),
      secretBox: Buffer.alloc(32, 1).toString("base64"),
    });
    const subscription = await vitrina.webhooks.create(workspaceId, {
      url: "https://erp.example.com/hooks",
      events: ["quote.created"],
      secret: "whsec_test_0123456789abcdefABCDEF",
    });
    await vitrina.close();

    const workspaces = await cli("workspaces", "list", "--user", "ana");
    const [header, row] = workspaces.stdout.trimEnd().split("\n");
    expect(header).toMatch(/^ID +NAME +ROLE +VERTICAL +CURRENCY +CREATED$/);
    expect(row).toMatch(new RegExp(`^${workspaceId} +Andes +owner +real_estate +CLP +\\S+$`));
    expect(header!.indexOf("NAME")).toBe(row!.indexOf("Andes"));

    const webhooks = await cli("webhooks", "list", "--workspace", workspaceId, "--user", "ana");
    expect(webhooks.stdout).toMatch(/^ID +URL +EVENTS +ENABLED +CREATED$/m);
    expect(webhooks.stdout).toContain(`${subscription.id}  https://erp.example.com/hooks  quote.created  yes`);
    const json = JSON.parse(
      (await cli("webhooks", "list", "--workspace", workspaceId, "--user", "ana", "--json")).stdout,
    );
    expect(json.data.map((s: { id: string }) => s.id)).toEqual([subscription.id]);

    const deliveries = await cli(
      "deliveries",
      "list",
      "--workspace",
      workspaceId,
      "--subscription",
      subscription.id,
      "--user",
      "ana",
      "--limit",
      "5",
    );
    expect(deliveries).toMatchObject({ code: 0, stdout: "(none)\n" });
  }, 180_000);
});
