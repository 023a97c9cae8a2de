import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedPgliteDataDir } from "../../adapter-postgres/test/support.js";
import { runCli, type CliRun } from "./support/cli-main.js";

// `vitrina whatsapp …` and `vitrina contacts …` as a person at the console meets them: each step a
// separate run of the CLI (its `main`, in process) on one embedded PGlite data directory, secrets passed in the environment.
let cwd: string;
const env = (extra: Record<string, string> = {}) => ({
  DATABASE_URL: "",
  VITRINA_SECRET_KEY: "",
  VITRINA_DATA_DIR: join(cwd, ".vitrina"),
  VITRINA_WHATSAPP_APP_SECRET: "",
  VITRINA_WHATSAPP_ACCESS_TOKEN: "",
  VITRINA_WHATSAPP_VERIFY_TOKEN: "",
  ...extra,
});
const cli = (args: string[], extraEnv?: Record<string, string>) => runCli(args, { cwd, env: env(extraEnv) });
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "vitrina-cli-whatsapp-"));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

function expectUsageError(run: CliRun, message: string): void {
  expect(run, run.stderr).toMatchObject({ code: 2, stdout: "" });
  expect(run.stderr).toContain(message);
}

describe("vitrina whatsapp / contacts: help and usage errors", () => {
  it("lists both commands, and refuses bad command lines (exit 2) before opening any storage", async () => {
    const set = ["whatsapp", "set", "--workspace", "w", "--phone-number-id", "1065"];
    const [help, whatsappHelp, secretFlag, both, none, limit, noWorkspace, action, receiveOnly] = await Promise.all([
      cli(["--help"]),
      cli(["whatsapp", "--help"]),
      cli([...set, "--app-secret", "hunter2-secret"]),
      cli(["contacts", "opt-out", "--workspace", "w", "--contact", "c", "--phone", "+56911112222"]),
      cli(["contacts", "opt-out", "--workspace", "w"]),
      cli(["contacts", "consent", "--workspace", "w", "--contact", "c", "--limit", "201"]),
      cli(["whatsapp", "show"]),
      cli(["whatsapp", "enable", "--workspace", "w"]),
      cli([...set, "--receive-only"], { VITRINA_WHATSAPP_ACCESS_TOKEN: "EAAG-token" }),
    ]);
    expect(help.stdout).toContain("  whatsapp");
    expect(help.stdout).toContain("  contacts");
    expect(whatsappHelp.stdout).toContain("VITRINA_WHATSAPP_APP_SECRET");
    expectUsageError(secretFlag, "set VITRINA_WHATSAPP_APP_SECRET instead");
    // The refusal names the variable, never echoes the secret that was typed.
    expect(secretFlag.stderr).not.toContain("hunter2-secret");
    expectUsageError(both, "name the contact with exactly one of --contact or --phone");
    expectUsageError(none, "name the contact with exactly one of --contact or --phone");
    expectUsageError(limit, "--limit must be at most 200, got 201");
    expectUsageError(noWorkspace, "missing --workspace");
    expectUsageError(action, 'unknown whatsapp action "enable"');
    expectUsageError(receiveOnly, "--receive-only drops the access token, but VITRINA_WHATSAPP_ACCESS_TOKEN is set");
    expect(existsSync(env().VITRINA_DATA_DIR)).toBe(false);
  }, 120_000);
});

describe("vitrina whatsapp / contacts against embedded PGlite", () => {
  let workspaceId: string;
  beforeAll(async () => {
    await seedPgliteDataDir(join(env().VITRINA_DATA_DIR, "pglite"));
    const created = await cli(["workspaces", "create", "--name", "Andes", "--owner", "ana", "--json"]);
    workspaceId = JSON.parse(created.stdout).id;
  }, 60_000);

  it("sets up a channel with secrets from the environment, prints the verify token once, shows and removes it", async () => {
    const set = ["whatsapp", "set", "--workspace", workspaceId, "--phone-number-id", "1065"];
    const missing = await cli(set);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("  VITRINA_WHATSAPP_APP_SECRET: is required to create a channel");

    const secrets = { VITRINA_WHATSAPP_APP_SECRET: "meta-app-secret", VITRINA_WHATSAPP_ACCESS_TOKEN: "EAAG-token" };
    const created = await cli([...set, "--json"], secrets);
    expect(created.code, created.stderr).toBe(0);
    const printed = JSON.parse(created.stdout);
    expect(printed).toMatchObject({
      channel: { workspace_id: workspaceId, phone_number_id: "1065", sends_through: "cloud_api" },
      verify_token: expect.stringMatching(/^vtr_wv_/),
      webhook_url: expect.stringContaining("/functions/v1/whatsapp-webhook"),
    });
    expect(created.stderr).toContain("The verify token above is shown once.");

    const shown = await cli(["whatsapp", "show", "--workspace", workspaceId]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^phone_number_id +1065$/m);
    expect(shown.stdout).toMatch(/^webhook_url +<your public URL>\/functions\/v1\/whatsapp-webhook/m);
    for (const secret of [printed.verify_token, "meta-app-secret", "EAAG-token", "verify_token"])
      expect(shown.stdout).not.toContain(secret);

    const changed = await cli([...set, "--receive-only", "--api-version", "v22.0", "--json"]);
    expect(JSON.parse(changed.stdout)).toEqual({
      channel: expect.objectContaining({ sends_through: "messaging_transport", api_version: "v22.0" }),
      webhook_url: printed.webhook_url,
    });
    const bad = await cli([...set, "--graph-url", "ftp://x", "--api-version", "21"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("  --graph-url: must be an absolute http(s) URL");
    expect(bad.stderr).toContain("  --api-version: must look like v21.0");

    expect((await cli(["whatsapp", "remove", "--workspace", workspaceId])).code).toBe(0);
    const gone = await cli(["whatsapp", "show", "--workspace", workspaceId]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("vitrina: not_found: workspace");
  }, 180_000);

  it("opts a contact out by phone and by id, and shows the consent ledger naming the CLI", async () => {
    const byPhone = await cli([
      "contacts",
      "opt-out",
      "--workspace",
      workspaceId,
      "--phone",
      "+56911112222",
      "--note",
      "called",
      "--json",
    ]);
    expect(byPhone.code, byPhone.stderr).toBe(0);
    const contact = JSON.parse(byPhone.stdout);
    expect(contact).toMatchObject({ phoneE164: "+56911112222", whatsappOptedOutAt: expect.any(String) });
    const badPhone = await cli(["contacts", "opt-out", "--workspace", workspaceId, "--phone", "911112222"]);
    expect(badPhone.code).toBe(1);
    expect(badPhone.stderr).toMatch(/^ {2}--phone: /m);

    const byId = await cli(["contacts", "opt-out", "--workspace", workspaceId, "--contact", contact.id]);
    expect(byId.code, byId.stderr).toBe(0);
    expect(byId.stdout).toMatch(new RegExp(`^id +${contact.id}$`, "m"));

    const ledger = await cli(["contacts", "consent", "--workspace", workspaceId, "--contact", contact.id, "--json"]);
    const entries = JSON.parse(ledger.stdout);
    expect(entries[0]).toMatchObject({ kind: "opted_out", source: "service", sourceRef: "cli" });
    expect(entries.some((e: { evidence: { note?: string } }) => e.evidence.note === "called")).toBe(true);
    const table = await cli([
      "contacts",
      "consent",
      "--workspace",
      workspaceId,
      "--contact",
      contact.id,
      "--limit",
      "1",
    ]);
    expect(table.stdout).toMatch(/^OCCURRED +KIND +SOURCE +SOURCE REF +EVIDENCE$/m);
    expect(table.stdout.trimEnd().split("\n")).toHaveLength(2);
    const unknown = await cli(["contacts", "consent", "--workspace", workspaceId, "--contact", "nope"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("vitrina: not_found: contact nope does not exist");
  }, 180_000);
});
