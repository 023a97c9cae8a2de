import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storageFromEnv } from "../src/storage-from-env.js";

// A mistyped timeout is refused at start-up naming the variable, before any storage is opened,
// rather than reaching PostgreSQL as NaN and failing the first query far from its cause.
describe("storageFromEnv: VITRINA_STATEMENT_TIMEOUT_MS", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "vitrina-env-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each(["abc", "10s", "0", "-5", "1.5", "1e4"])("refuses %j naming the variable", async (value) => {
    await expect(
      storageFromEnv({
        env: { VITRINA_STATEMENT_TIMEOUT_MS: value, VITRINA_DATA_DIR: join(dir, "never"), DATABASE_URL: "" },
      }),
    ).rejects.toMatchObject({
      code: "invalid_argument",
      message: expect.stringContaining(`VITRINA_STATEMENT_TIMEOUT_MS must be a positive whole number`),
      reasons: [{ field: "VITRINA_STATEMENT_TIMEOUT_MS", reason: "must be a positive whole number of milliseconds" }],
    });
  });
});
