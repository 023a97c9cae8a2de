import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, vi } from "vitest";
import { seedPgliteDataDir } from "../../../adapter-postgres/test/support.js";

/**
 * Points the CLI's storage at embedded PGlite in a fresh temp data dir for each test (no
 * DATABASE_URL, no secret key), and restores the environment after. Returns the current dir.
 * With `seeded`, the dir starts with an empty, not yet migrated PGlite database (a copy, see
 * seedPgliteDataDir) instead of none, so the first open skips initdb.
 */
export function useTempPgliteDataDir(prefix: string, options: { seeded?: boolean } = {}): () => string {
  let dataDir = "";
  const originalEnv = { ...process.env };
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), prefix));
    if (options.seeded) await seedPgliteDataDir(join(dataDir, "pglite"));
    process.env.VITRINA_DATA_DIR = dataDir;
    delete process.env.DATABASE_URL;
    delete process.env.VITRINA_SECRET_KEY;
  });
  afterEach(async () => {
    process.env = { ...originalEnv };
    vi.restoreAllMocks();
    await rm(dataDir, { recursive: true, force: true });
  });
  return () => dataDir;
}
