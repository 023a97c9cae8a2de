import { readFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedPgliteDataDir } from "../../adapter-postgres/test/support.js";
import { runCli } from "./support/cli-main.js";

// `vitrina contacts export|erase` as an operator answering a data request: separate runs of
// the CLI (its `main`, in process) on one embedded PGlite data directory.
let cwd: string;
const env = () => ({ DATABASE_URL: "", VITRINA_SECRET_KEY: "", VITRINA_DATA_DIR: join(cwd, ".vitrina") });
const cli = (args: string[]) => runCli(args, { cwd, env: env() });
let workspaceId: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "vitrina-cli-privacy-"));
  await seedPgliteDataDir(join(env().VITRINA_DATA_DIR, "pglite"));
  const created = await cli(["workspaces", "create", "--name", "Andes", "--owner", "ana", "--json"]);
  workspaceId = JSON.parse(created.stdout).id;
}, 60_000);
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe("vitrina contacts export / erase", () => {
  it("refuses a person named twice or not at all, and an erase without --yes, before opening storage", async () => {
    const [both, none, unconfirmed] = await Promise.all([
      cli(["contacts", "export", "--workspace", "w", "--phone", "+56911112222", "--email", "a@b.cl"]),
      cli(["contacts", "erase", "--workspace", "w", "--yes"]),
      cli(["contacts", "erase", "--workspace", "w", "--phone", "+56911112222"]),
    ]);
    for (const run of [both, none]) {
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        "name the person with exactly one of --contact, --phone, --email or --whatsapp-user-id",
      );
    }
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain("erasure can't be undone: add --yes to confirm");
  }, 60_000);

  it("exports to a file and to standard output, erases with --yes, and the export then holds nothing of them", async () => {
    const phone = "+56955566677";
    const opted = await cli([
      "contacts",
      "opt-out",
      "--workspace",
      workspaceId,
      "--phone",
      phone,
      "--note",
      "Rosa Aguirre",
      "--json",
    ]);
    const contactId = JSON.parse(opted.stdout).id;
    const file = join(cwd, "export.json");
    const toFile = await cli(["contacts", "export", "--workspace", workspaceId, "--phone", phone, "--out", file]);
    expect(toFile.code, toFile.stderr).toBe(0);
    const document = JSON.parse(await readFile(file, "utf8"));
    expect(document).toMatchObject({
      format: "vitrina.personal-data",
      version: 1,
      contact: { id: contactId, phoneE164: phone },
    });
    expect(document.consent[0]).toMatchObject({ kind: "opted_out", evidence: { note: "Rosa Aguirre" } });

    const erased = await cli(["contacts", "erase", "--workspace", workspaceId, "--phone", phone, "--yes", "--json"]);
    expect(erased.code, erased.stderr).toBe(0);
    const record = JSON.parse(erased.stdout);
    expect(record).toMatchObject({ contactId, requestedBy: "cli", counts: { contacts: 1, consent: 1 } });
    expect(erased.stdout).not.toContain(phone);

    const toStdout = await cli(["contacts", "export", "--workspace", workspaceId, "--contact", contactId]);
    expect(toStdout.code, toStdout.stderr).toBe(0);
    const after = JSON.parse(toStdout.stdout);
    expect(after.contact).toMatchObject({ id: contactId, phoneE164: null, name: null });
    for (const value of [phone, "Rosa Aguirre"]) expect(toStdout.stdout).not.toContain(value);
    const gone = await cli(["contacts", "export", "--workspace", workspaceId, "--phone", phone]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("not_found");
  }, 120_000);
});
